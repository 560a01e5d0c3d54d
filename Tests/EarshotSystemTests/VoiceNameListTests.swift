import Foundation
import Testing

@testable import EarshotSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The voice list read from a child process: the child's answer when it gives one, the in-process list otherwise.
@Suite struct VoiceNameListTests {
    /// Starts `sh -c script` with its standard output on a pipe; returns the pipe's read end and the child's pid.
    private func child(_ script: String) throws -> (descriptor: Int32, child: Int32) {
        var pipeEnds: [Int32] = [0, 0]
        try #require(pipe(&pipeEnds) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        let argv: [UnsafeMutablePointer<CChar>?] =
            ["/bin/sh", "-c", script].map { (text: String) in strdup(text) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        try #require(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, environ) == 0)
        close(pipeEnds[1])
        return (pipeEnds[0], pid)
    }

    private final class Calls: @unchecked Sendable {
        var count = 0
    }

    @Test func theChildsListIsTakenLowerCasedAndAskedForOnce() throws {
        let calls = Calls()
        let list = VoiceNameList(reading: try child("sleep 0.2; printf 'English\\nen-US\\nfr\\n'")) {
            calls.count += 1
            return ["from-this-process"]
        }
        #expect(list.names() == ["english", "en-us", "fr"])
        #expect(list.names() == ["english", "en-us", "fr"])
        #expect(calls.count == 0)
    }

    @Test(arguments: ["printf 'en\\n'; exit 3", "kill -9 $$"])
    func aChildThatFailsIsReplacedByTheListMadeInThisProcess(script: String) throws {
        let calls = Calls()
        let list = VoiceNameList(reading: try child(script)) {
            calls.count += 1
            return ["from-this-process"]
        }
        #expect(list.names() == ["from-this-process"])
        #expect(list.names() == ["from-this-process"])
        #expect(calls.count == 1)
    }

    @Test func withoutAChildTheListIsMadeInThisProcess() {
        let list = VoiceNameList(reading: nil) { ["en"] }
        #expect(list.names() == ["en"])
    }

    @Test func aLargeListArrivesWhole() throws {
        let list = VoiceNameList(reading: try child("seq 1 20000 | sed 's/^/voice/'")) { [] }
        let names = list.names()
        #expect(names.count == 20_000)
        #expect(names.contains("voice1") && names.contains("voice20000"))
    }
}
