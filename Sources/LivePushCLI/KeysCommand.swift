import ArgumentParser
import Foundation
import LivePushServer
import Logging
import PushStore

/// `livepush keys create|list|revoke`: the API keys of `livepush serve`, stored hashed.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create, list and revoke the API keys of `livepush serve` (stored as SHA-256 hashes).",
        discussion:
            "App keys may only register activities and tokens; backend keys send pushes and read activities; operator keys open the console at /console (read-only, and its test push).",
        subcommands: [Create.self, List.self, Revoke.self]
    )

    /// `--database`, as for `livepush serve`.
    struct DatabaseOptions: ParsableArguments {
        @Option(help: "SQLite file or postgres:// URL. Default: $LIVEPUSH_DATABASE, else livepush.sqlite.")
        var database: String?

        func open() async throws -> (store: any PushStore, name: String) {
            let env = ProcessInfo.processInfo.environment["LIVEPUSH_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
            let database = database ?? env ?? PushStoreOpener.defaultDatabase
            var logger = Logger(label: "livepush.keys")
            logger.logLevel = .error
            do {
                return (
                    try await PushStoreOpener.open(NSString(string: database).expandingTildeInPath, logger: logger),
                    PushStoreOpener.redacted(database)
                )
            } catch {
                throw CommandFailure("--database \(PushStoreOpener.redacted(database)): \(error.description)")
            }
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key and print it once; only its hash is stored."
        )

        @Option(help: "app (register activities and tokens), backend (send and read) or operator (the console: read, and its test push).")
        var scope: APIKeyScope
        @Option(help: "A name to recognize the key by in `keys list`.")
        var name: String = "unnamed"
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let (store, _) = try await database.open()
            let key = APIKeys.generate(scope: scope)
            do {
                let record = try await store.createAPIKey(name: name, scope: scope, sha256Hash: APIKeys.hash(key), at: Date())
                await store.close()
                print(key)
                TerminalOutput.error("created \(record.scope.rawValue) key \(record.id.lowercased) '\(record.name)'; it is shown only now")
            } catch {
                await store.close()
                throw CommandFailure(error.description)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys (id, scope, name, created, revoked); never the keys themselves.")

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let (store, _) = try await database.open()
            let keys: [APIKeyRecord]
            do {
                keys = try await store.apiKeys()
            } catch {
                await store.close()
                throw CommandFailure(error.description)
            }
            await store.close()
            let formatter = ISO8601DateFormatter()
            if keys.isEmpty { print("no API keys; create one with `livepush keys create --scope app|backend|operator`") }
            for key in keys {
                let revoked = key.revokedAt.map { "revoked " + formatter.string(from: $0) } ?? "active"
                print(
                    "\(key.id.lowercased)  \(key.scope.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0))  \(formatter.string(from: key.createdAt))  \(revoked)  \(key.name)"
                )
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key by its id (from `keys list`); requests with it get 401.")

        @Argument(help: "The key's id.")
        var id: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard let uuid = UUID(uuidString: id) else {
                throw ValidationError("'\(id)' is not a key id; expected the UUID shown by `livepush keys list`")
            }
            let (store, _) = try await database.open()
            do {
                let record = try await store.revokeAPIKey(id: uuid, at: Date())
                await store.close()
                print("revoked \(record.scope.rawValue) key \(record.id.lowercased) '\(record.name)'")
            } catch {
                await store.close()
                throw CommandFailure(error.description)
            }
        }
    }
}

extension APIKeyScope: ExpressibleByArgument {}
