import ServiceLifecycle

/// A Service of the application that names itself by its type alone. ServiceLifecycle logs every service
/// with `String(describing:)`, which for a struct prints each field: the configuration, with its keys and
/// secrets, among them.
protocol BackgroundWorker: Service, CustomStringConvertible {}

extension BackgroundWorker {
    var description: String { "\(Self.self)" }
}
