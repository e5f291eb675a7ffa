import APNsAuth
import ArgumentParser
import Foundation

struct KeygenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Create a new P-256 provider key as a .p8 file (for the local simulator; Apple issues real keys).",
        discussion: """
            Writes the key in the .p8 form Apple uses (PKCS#8 PEM), readable only by you (mode 0600), \
            and prints its public key, which the simulator needs to verify tokens signed with it.
            """
    )

    @Option(name: .customLong("out"), help: "Where to write the key, e.g. AuthKey_SIMKEY0001.p8.")
    var out: String
    @Flag(help: "Replace the file if it exists.")
    var force = false

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out is empty; give the path of the .p8 file to write") }
    }

    func run() async throws {
        let path = NSString(string: out).expandingTildeInPath
        let key = APNsSigningKey.generate()
        try key.write(toFile: path, overwrite: force)
        print("Wrote \(path)")
        print("Public key:")
        print(key.publicKeyPEM, terminator: "")
    }
}
