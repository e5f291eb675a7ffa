/// What `livepush --version` prints: the version and the commit of the build. `scripts/release.sh` writes
/// them into `ReleaseBuildInfo.generated.swift` (git ignores it; the script removes it afterwards) and
/// compiles with `-DLIVEPUSH_RELEASE_BUILD`; any other build, such as a plain `swift build` from a clone
/// without git, says it is a development build whose commit it does not know.
enum BuildInfo {
    #if LIVEPUSH_RELEASE_BUILD
        static let version = ReleaseBuildInfo.version
        static let commit: String? = ReleaseBuildInfo.commit
    #else
        static let version = "development build"
        static let commit: String? = nil
    #endif

    /// `livepush 1.2.0 (commit 0123abc…)`, or `livepush development build (commit unknown: …)`.
    static var versionLine: String {
        let source = commit.map { "commit \($0)" } ?? "commit unknown: not built by scripts/release.sh"
        return "livepush \(version) (\(source))"
    }
}
