import Foundation
import Testing

@testable import EarshotAudio

#if canImport(Glibc)
    import Glibc
#endif

/// An output path that already exists is never replaced by something else: devices and FIFOs are written through
/// (whole files) or refused (WAVs and a render's staged files), links keep pointing where they did, folders and
/// dangling links are refused.
@Suite("Output destinations")
struct OutputDestinationTests {
    /// `st_mode`'s file type of `path` itself (not following a link).
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & 0o170_000 : nil
    }

    static let characterDevice: mode_t = 0o020_000
    static let fifo: mode_t = 0o010_000
    static let symbolicLink: mode_t = 0o120_000
    static let regular: mode_t = 0o100_000

    /// A character device like `/dev/null` (1, 3) at `path`; needs root (the suite runs as root in CI).
    static func makeNullDevice(_ path: String) throws {
        try makeDevice(path, minor: 3)
    }

    /// A private `/dev/full` (1, 7): a regression can then only replace this node, never the system's.
    static func makeFullDevice(_ path: String) throws {
        try makeDevice(path, minor: 7)
    }

    private static func makeDevice(_ path: String, minor: UInt64) throws {
        guard mknod(path, mode_t(0o020_666), dev_t(1 << 8) | dev_t(minor)) == 0 else {  // makedev(1, minor)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EPERM)
        }
    }

    @Test func aCharacterDeviceIsWrittenThroughAndStaysADevice() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("null")
        try Self.makeNullDevice(path)
        try AtomicFile.write("<testsuites/>\n", to: path)
        #expect(Self.fileType(path) == Self.characterDevice)
        #expect(folder.contents == ["null"], "no temporary or regular file beside it")
    }

    @Test func aFullDeviceFailsWithTheReasonAndStaysADevice() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let full = folder.file("full")
        try Self.makeFullDevice(full)
        let error = #expect(throws: OutputFileError.self) { try AtomicFile.write("x", to: full) }
        #expect(error?.description == "cannot write \(full): No space left on device")
        #expect(Self.fileType(full) == Self.characterDevice)
        #expect(folder.contents == ["full"])
    }

    @Test func aFIFOIsWrittenThroughToItsReader() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("pipe")
        #expect(mkfifo(path, 0o600) == 0)
        // The read end opens first without blocking, so the write's open finds a reader; had the FIFO been
        // replaced, the read below finds nothing instead of hanging.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try AtomicFile.write("through the pipe\n", to: path)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
        #expect(String(decoding: buffer.prefix(max(0, count)), as: UTF8.self) == "through the pipe\n")
        #expect(Self.fileType(path) == Self.fifo)
        #expect(folder.contents == ["pipe"])
    }

    @Test(arguments: ["device", "fifo", "folder"])
    func aWAVOrStagedFileRefusesAnythingButARegularFile(kind: String) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("out.wav")
        switch kind {
        case "device": try Self.makeNullDevice(path)
        case "fifo": #expect(mkfifo(path, 0o600) == 0)
        default: try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        }
        let before = Self.fileType(path)
        let expected = ["device": "character device", "fifo": "FIFO (named pipe)", "folder": "folder"][kind] ?? ""
        let wavError = #expect(throws: OutputFileError.self) { _ = try WAVWriter(path: path, sampleRate: 22_050) }
        #expect(wavError?.description.hasPrefix("cannot create \(path): it is a \(expected)") == true)
        let stagedError = #expect(throws: OutputFileError.self) { _ = try StagedFile(path: path, text: "x") }
        #expect(stagedError?.description.hasPrefix("cannot create \(path): it is a \(expected)") == true)
        #expect(Self.fileType(path) == before)
        #expect(folder.contents == ["out.wav"])
    }

    @Test func aRegularFileIsAcceptedWhereDevicesAreRefused() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("out.txt")
        try "old".write(toFile: path, atomically: false, encoding: .utf8)
        let staged = try StagedFile(path: path, text: "new")
        try staged.commit()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        #expect(Self.fileType(path) == Self.regular)
    }

    @Test func aSymbolicLinkKeepsPointingAtItsFileWhichGetsTheNewContents() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try FileManager.default.createDirectory(atPath: folder.file("real"), withIntermediateDirectories: false)
        let target = folder.file("real/report.xml")
        try "old".write(toFile: target, atomically: false, encoding: .utf8)
        let link = folder.file("report.xml")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "real/report.xml")
        try AtomicFile.write("new", to: link)
        let staged = try StagedFile(path: link, text: "newer")
        try StagedFile.commitTogether([staged])
        #expect(Self.fileType(link) == Self.symbolicLink)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real/report.xml")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "newer")
        #expect(folder.contents == ["real", "report.xml"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.file("real")) == ["report.xml"])
    }

    @Test func aLinkToAMissingFileIsRefusedAndLeftAlone() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let link = folder.file("out.html")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "gone/out.html")
        let error = #expect(throws: OutputFileError.self) { try AtomicFile.write("x", to: link) }
        #expect(
            error?.description
                == "cannot create \(link): it is a symbolic link to gone/out.html, which does not exist; "
                + "give the file itself or create it first")
        #expect(Self.fileType(link) == Self.symbolicLink)
        #expect(folder.contents == ["out.html"])
    }

    @Test func stagedFilesAppearTogetherAndAFailureBeforeTheRenamesLeavesNone() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let first = try StagedFile(path: folder.file("a.vtt"), text: "a")
        let second = try StagedFile(path: folder.file("a.jsonl"), text: "b")
        #expect(folder.contents.allSatisfy { $0.hasSuffix(".tmp") } && folder.contents.count == 2)
        try StagedFile.commitTogether([first, second])
        #expect(folder.contents == ["a.jsonl", "a.vtt"])
        // The second file's folder vanishes before publishing: nothing of the new set may appear.
        try FileManager.default.createDirectory(atPath: folder.file("sub"), withIntermediateDirectories: false)
        let kept = try StagedFile(path: folder.file("a.vtt"), text: "new a")
        let lost = try StagedFile(path: folder.file("sub/a.jsonl"), text: "new b")
        try FileManager.default.removeItem(atPath: folder.file("sub"))
        #expect(throws: OutputFileError.self) { try StagedFile.commitTogether([lost, kept]) }
        #expect(try String(contentsOfFile: folder.file("a.vtt"), encoding: .utf8) == "a")
        #expect(folder.contents == ["a.jsonl", "a.vtt"])
    }
}
