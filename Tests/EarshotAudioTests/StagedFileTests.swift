import Foundation
import Synchronization
import Testing

@testable import EarshotAudio

#if canImport(Glibc)
    import Glibc
#endif

/// A render's set of files is flushed to disk once as a set, not once per file.
@Suite("Staged file sets")
struct StagedFileTests {
    /// Counts the flushes a set makes; `fileSystemResult` is what the one set flush returns.
    final class Flushes: Sendable {
        let perFile = Mutex(0)
        let perSet = Mutex(0)

        func io(fileSystemResult: Int32 = 0) -> AtomicFile.IO {
            var io = AtomicFile.IO(
                write: AtomicFile.IO.posix.write,
                fsync: { descriptor in
                    self.perFile.withLock { $0 += 1 }
                    return AtomicFile.IO.posix.fsync(descriptor)
                },
                rename: AtomicFile.IO.posix.rename)
            io.syncFileSystem = { descriptor in
                self.perSet.withLock { $0 += 1 }
                return fileSystemResult == 0 ? AtomicFile.IO.posix.syncFileSystem(descriptor) : fileSystemResult
            }
            return io
        }
    }

    @Test func aSetOfFourFilesIsFlushedOnceNotOncePerFile() throws {
        #if os(Linux)
            let folder = try ScratchFolder()
            defer { folder.remove() }
            let flushes = Flushes()
            let names = ["out.wav", "out.vtt", "out.jsonl", "out.html"]
            let files = try names.map { try StagedFile(path: folder.file($0), text: $0, io: flushes.io()) }
            try StagedFile.commitTogether(files)
            #expect(flushes.perSet.withLock { $0 } == 1)
            #expect(flushes.perFile.withLock { $0 } == 0)
            #expect(folder.contents == names.sorted())
            #expect(try String(contentsOfFile: folder.file("out.vtt"), encoding: .utf8) == "out.vtt")
        #endif
    }

    @Test(arguments: [EIO, ENOSPC])
    func aFailingSetFlushLeavesNoneOfTheFilesAndNamesOne(code: Int32) throws {
        #if os(Linux)
            let folder = try ScratchFolder()
            defer { folder.remove() }
            try "old".write(toFile: folder.file("out.vtt"), atomically: false, encoding: .utf8)
            let flushes = Flushes()
            let files = try ["out.wav", "out.vtt"].map {
                try StagedFile(path: folder.file($0), text: "new", io: flushes.io(fileSystemResult: -code))
            }
            let error = #expect(throws: OutputFileError.self) { try StagedFile.commitTogether(files) }
            #expect(error?.description == "cannot write \(folder.file("out.wav")): \(String(cString: strerror(code)))")
            #expect(folder.contents == ["out.vtt"])
            #expect(try String(contentsOfFile: folder.file("out.vtt"), encoding: .utf8) == "old")
        #endif
    }
}
