import ArgumentParser
import Testing

@testable import LivePushCLI

/// `livepush --version`: what a build says about itself. The release's own line (version and commit, from
/// scripts/release.sh) is checked by that script and by Tests/Release/run.sh on the binary it makes.
@Suite struct VersionTests {
    @Test func aPlainBuildSaysItIsADevelopmentBuildOfAnUnknownCommit() {
        #expect(BuildInfo.versionLine == "livepush development build (commit unknown: not built by scripts/release.sh)")
        #expect(LivePush.configuration.version == BuildInfo.versionLine)
        #expect {
            _ = try LivePush.parseAsRoot(["--version"])
        } throws: { error in
            LivePush.message(for: error) == BuildInfo.versionLine
        }
    }
}
