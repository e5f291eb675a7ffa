/// What became of the long adventure's renewals (`--long`), read from the server and the iPhones.
package struct DemoRenewals: Sendable, Hashable {
    /// Heroes whose activity was due for renewal.
    package var heroes: Int
    /// Heroes whose activity the server renewed (its renewal is `renewed`, a new activity runs on the iPhone
    /// and the old one ended).
    package var renewed: Int
    /// Heroes whose renewal failed, with the server's reason.
    package var failures: [String]
    /// The registrations' `renewBefore`.
    package var renewBefore: String
    /// Updates the backend sent a hero after its renewal (one per hero and update), and how many the new
    /// activity showed on the iPhone.
    package var updatesAfterRenewal: Int
    package var appliedAfterRenewal: Int

    /// True when every hero was renewed and every update after it arrived.
    package var succeeded: Bool {
        renewed == heroes && failures.isEmpty && updatesAfterRenewal > 0 && appliedAfterRenewal == updatesAfterRenewal
    }

    /// `renewals: 4 of 4 heroes renewed at 7h45m, 0 failed; updates after renewal: 8, all applied`.
    package var line: String {
        let applied = appliedAfterRenewal == updatesAfterRenewal ? "all applied" : "\(appliedAfterRenewal) applied"
        return "renewals: \(renewed) of \(heroes) heroes renewed at \(renewBefore), \(failures.count) failed; "
            + "updates after renewal: \(updatesAfterRenewal), \(applied)"
    }
}
