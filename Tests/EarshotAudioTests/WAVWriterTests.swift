import Foundation
import Testing

@testable import EarshotAudio

#if canImport(Glibc)
    import Glibc
#endif

@Suite("WAV writer")
struct WAVWriterTests {
    @Test func headerIsTheCanonical44BytesForAKnownInput() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("known.wav")
        let writer = try WAVWriter(path: path, sampleRate: 22_050)
        try writer.append([0, 1, -1, Int16.max, Int16.min])
        try writer.finish()

        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let expected: [UInt8] = [
            0x52, 0x49, 0x46, 0x46, 0x2E, 0x00, 0x00, 0x00,  // "RIFF", 36 + 10
            0x57, 0x41, 0x56, 0x45, 0x66, 0x6D, 0x74, 0x20,  // "WAVE", "fmt "
            0x10, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00,  // 16, PCM, mono
            0x22, 0x56, 0x00, 0x00, 0x44, 0xAC, 0x00, 0x00,  // 22050 Hz, 44100 bytes/s
            0x02, 0x00, 0x10, 0x00, 0x64, 0x61, 0x74, 0x61,  // align 2, 16 bits, "data"
            0x0A, 0x00, 0x00, 0x00,  // 10 bytes of samples
            0x00, 0x00, 0x01, 0x00, 0xFF, 0xFF, 0xFF, 0x7F, 0x00, 0x80,
        ]
        #expect(bytes == expected)
        #expect(WAVWriter.header(sampleRate: 22_050, frameCount: 5) == Array(expected.prefix(44)))
    }

    @Test func samplesRoundTripThroughTheReaderAcrossManyChunks() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("long.wav")
        let samples = (0..<100_003).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let writer = try WAVWriter(path: path, sampleRate: 16_000)
        try writer.append(samples[..<40_000])
        try writer.append(samples[40_000...])
        #expect(writer.frameCount == samples.count)
        try writer.finish()

        let file = try WAVFile.read(path: path)
        #expect(file.samples == samples)
        #expect(file.sampleRate == 16_000)
        #expect(file.channels == 1)
        #expect(folder.contents == ["long.wav"])
    }

    @Test func soxReadsTheFileWithTheRightLength() throws {
        let soxi = "/usr/bin/soxi"
        try #require(FileManager.default.isExecutableFile(atPath: soxi), "soxi is installed with sox")
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("sox.wav")
        let writer = try WAVWriter(path: path, sampleRate: 22_050)
        try writer.append([Int16](repeating: 1000, count: 44_100))
        try writer.finish()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: soxi)
        process.arguments = ["-D", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) == 2.0)
    }

    @Test func diskFullDuringAppendLeavesNoFileAndNamesTheReason() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("full.wav")
        let io = AtomicFile.IO(
            write: { _, _ in -Int(ENOSPC) }, fsync: AtomicFile.IO.posix.fsync,
            rename: AtomicFile.IO.posix.rename)
        let writer = try WAVWriter(path: path, sampleRate: 22_050, io: io)
        #expect(folder.contents.count == 1, "the hidden temporary exists while writing")
        #expect(folder.contents.first?.hasPrefix(".full.wav.") == true)
        let error = #expect(throws: OutputFileError.self) {
            try writer.append([Int16](repeating: 5, count: 100_000))
        }
        #expect(error?.description == "cannot write \(path): No space left on device")
        #expect(error?.errno == ENOSPC)
        #expect(folder.contents.isEmpty)
        #expect(throws: OutputFileError.self) { try writer.finish() }
        #expect(folder.contents.isEmpty)
    }

    @Test func diskFullWhileWritingTheFinalHeaderLeavesNoFile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("late.wav")
        let calls = Counter()
        let io = AtomicFile.IO(
            write: { descriptor, bytes in
                calls.next() == 1 ? AtomicFile.IO.posix.write(descriptor, bytes) : -Int(ENOSPC)
            },
            fsync: AtomicFile.IO.posix.fsync, rename: AtomicFile.IO.posix.rename)
        let writer = try WAVWriter(path: path, sampleRate: 22_050, io: io)
        try writer.append([1, 2, 3])
        let error = #expect(throws: OutputFileError.self) { try writer.finish() }
        #expect(error?.errno == ENOSPC)
        #expect(folder.contents.isEmpty)
    }

    @Test func shortAndInterruptedWritesAreContinuedUntilEveryByteIsWritten() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("short.wav")
        // A write(2) that accepts at most 1000 bytes and is interrupted every other call.
        let calls = Counter()
        let io = AtomicFile.IO(
            write: { descriptor, bytes in
                if calls.next() % 2 == 0 { return -Int(EINTR) }
                let part = UnsafeRawBufferPointer(rebasing: bytes.prefix(1000))
                return AtomicFile.IO.posix.write(descriptor, part)
            },
            fsync: AtomicFile.IO.posix.fsync, rename: AtomicFile.IO.posix.rename)
        let samples = (0..<70_000).map { Int16(truncatingIfNeeded: $0) }
        let writer = try WAVWriter(path: path, sampleRate: 8_000, io: io)
        try writer.append(samples)
        try writer.finish()
        #expect(try WAVFile.read(path: path).samples == samples)
    }

    @Test func failedFsyncKeepsTheOldFileAndRemovesTheTemporary() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("old.wav")
        try AtomicFile.write("previous contents", to: path)
        let io = AtomicFile.IO(
            write: AtomicFile.IO.posix.write, fsync: { _ in -EIO }, rename: AtomicFile.IO.posix.rename)
        let writer = try WAVWriter(path: path, sampleRate: 22_050, io: io)
        try writer.append([1, 2, 3])
        let error = #expect(throws: OutputFileError.self) { try writer.finish() }
        #expect(error?.description == "cannot write \(path): Input/output error")
        #expect(folder.contents == ["old.wav"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "previous contents")
    }

    @Test func aFolderThatIsARegularFileFailsAtCreationWithTheOSReason() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try AtomicFile.write("not a folder", to: folder.file("plain"))
        let path = folder.file("plain/out.wav")
        let error = #expect(throws: OutputFileError.self) { _ = try WAVWriter(path: path, sampleRate: 22_050) }
        #expect(error?.description == "cannot create \(path): Not a directory")
        #expect(folder.contents == ["plain"])
    }

    @Test func aFailedRenameKeepsTheOldFileAndLeavesNoTemporary() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("taken.wav")
        try Data("old".utf8).write(to: URL(fileURLWithPath: path))
        let io = AtomicFile.IO(
            write: AtomicFile.IO.posix.write, fsync: AtomicFile.IO.posix.fsync, rename: { _, _ in -EXDEV })
        let writer = try WAVWriter(path: path, sampleRate: 22_050, io: io)
        try writer.append([Int16](repeating: 9, count: 1000))
        let error = #expect(throws: OutputFileError.self) { try writer.finish() }
        #expect(error?.operation == .rename)
        #expect(error?.description.hasSuffix(": Invalid cross-device link") == true)
        #expect(folder.contents == ["taken.wav"])
        #expect(FileManager.default.contents(atPath: path) == Data("old".utf8))
    }

    @Test func cancelAndAbandoningTheWriterRemoveTheTemporary() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let cancelled = try WAVWriter(path: folder.file("a.wav"), sampleRate: 22_050)
        try cancelled.append([1, 2, 3])
        #expect(folder.contents.count == 1)
        cancelled.cancel()
        #expect(folder.contents.isEmpty)
        #expect(throws: OutputFileError.self) { try cancelled.append([4]) }

        do {
            let abandoned = try WAVWriter(path: folder.file("b.wav"), sampleRate: 22_050)
            try abandoned.append([1, 2, 3])
            #expect(folder.contents.count == 1)
        }
        #expect(folder.contents.isEmpty)
    }

    @Test func theFinishedFileGetsTheUmaskModeRatherThanMkstempsPrivateMode() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("mode.wav")
        let writer = try WAVWriter(path: path, sampleRate: 22_050)
        try writer.finish()
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        let mode = (attributes[.posixPermissions] as? Int) ?? 0
        #expect(mode == 0o666 & ~Int(AtomicFile.Temporary.currentUmask()))
        #expect(try WAVFile.read(path: path).samples.isEmpty)
    }
}
