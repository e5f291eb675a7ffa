import Foundation
import PackagePlugin

/// Embeds the API's contract, `openapi.json` of the target, as `OpenAPIContract.text`: the
/// file stays the one source of the document, and `livepush serve` carries it without a resource bundle.
@main
struct EmbedOpenAPIDocument: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let input = target.directoryURL.appending(path: "openapi.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIContract.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(input.lastPathComponent)",
                executable: try context.tool(named: "EmbedText").url,
                arguments: [input.path(), output.path(), "OpenAPIContract"],
                inputFiles: [input],
                outputFiles: [output])
        ]
    }
}
