import LivePushTesting

/// Filling in and sending the console's forms, as an operator would.
extension HeadlessChromium {
    /// Opens the console's `view` when one is named, sets each field (by element id) to its value, written
    /// into the page as it is, and submits the form with id `form`.
    func submit(_ form: String, _ fields: KeyValuePairs<String, String>, inView view: String? = nil) async throws {
        let open = view.map { "document.querySelector('[data-view=\($0)]').click();\n" } ?? ""
        let fill = fields.map { "document.getElementById('\($0.key)').value = '\($0.value)';\n" }.joined()
        _ = try await evaluate(open + fill + "document.getElementById('\(form)').requestSubmit(); true")
    }

    /// Submits the sign-in form with the test server's operator key (once the console's modules have run).
    func signInAsOperator() async throws {
        try await submit("sign-in-form", ["key": TestServer.operatorKey])
    }
}
