import Foundation
import Synchronization
import Testing

@testable import EarshotAudio

#if canImport(Glibc)
    import Glibc
#endif

/// A render's set of files is flushed to disk as a set: every file's writing starts before any is waited for, and
/// each wait is for that file alone (never the whole file system's unwritten data).
@Suite("Staged file sets")
struct StagedFileTests {
    /// Records the flushing calls a set makes, in order; `fsyncResult` is what each wait returns.
    final class Flushes: Sendable {
        let calls = Mutex<[String]>([])

        func io(fsyncResult: Int32 = 0) -> AtomicFile.IO {
            var io = AtomicFile.IO(
                write: AtomicFile.IO.posix.write,
                fsync: { descriptor in
                    self.calls.withLock { $0.append("wait") }
                    return fsyncResult == 0 ? AtomicFile.IO.posix.fsync(descriptor) : fsyncResult
                },
                rename: AtomicFile.IO.posix.rename)
            io.startWriteback = { descriptor in
                self.calls.withLock { $0.append("start") }
                AtomicFile.IO.posix.startWriteback(descriptor)
            }
            return io
        }
    }

    @Test func everyFileStartsWritingBeforeAnyIsWaitedFor() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let flushes = Flushes()
        let names = ["out.wav", "out.vtt", "out.jsonl", "out.html"]
        let files = try names.map { try StagedFile(path: folder.file($0), text: $0, io: flushes.io()) }
        try StagedFile.commitTogether(files)
        #expect(flushes.calls.withLock { $0 } == ["start", "start", "start", "start", "wait", "wait", "wait", "wait"])
        #expect(folder.contents == names.sorted())
        #expect(try String(contentsOfFile: folder.file("out.vtt"), encoding: .utf8) == "out.vtt")
    }

    /// The WAV is done long before its companions: the disk starts on it as soon as it is staged.
    @Test func aStagedWAVStartsWritingAtOnce() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let flushes = Flushes()
        let writer = try WAVWriter(path: folder.file("out.wav"), sampleRate: 22_050, io: flushes.io())
        try writer.append([1, 2, 3])
        #expect(flushes.calls.withLock { $0 }.isEmpty)
        let staged = try writer.stage()
        #expect(flushes.calls.withLock { $0 } == ["start"])
        try StagedFile.commitTogether([staged])
        #expect(flushes.calls.withLock { $0 } == ["start", "start", "wait"])
        #expect(folder.contents == ["out.wav"])
    }

    @Test func theRealWritebackCallExistsOnLinux() {
        #if os(Linux)
            #expect(AtomicFile.IO.syncFileRange != nil)
        #endif
    }

    @Test(arguments: [EIO, ENOSPC])
    func aFailingFlushLeavesNoneOfTheFilesAndNamesOne(code: Int32) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try "old".write(toFile: folder.file("out.vtt"), atomically: false, encoding: .utf8)
        let flushes = Flushes()
        let files = try ["out.wav", "out.vtt"].map {
            try StagedFile(path: folder.file($0), text: "new", io: flushes.io(fsyncResult: -code))
        }
        let error = #expect(throws: OutputFileError.self) { try StagedFile.commitTogether(files) }
        #expect(error?.description == "cannot write \(folder.file("out.wav")): \(String(cString: strerror(code)))")
        #expect(folder.contents == ["out.vtt"])
        #expect(try String(contentsOfFile: folder.file("out.vtt"), encoding: .utf8) == "old")
    }
}
