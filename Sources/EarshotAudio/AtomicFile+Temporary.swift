#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// The system calls a temporary file makes, injectable so tests can simulate `ENOSPC` or `EIO`.
    ///
    /// Each function returns what the system call returns, except that failures come back as the
    /// negated `errno` (`-ENOSPC`) instead of `-1`, so a fake needs no thread-local state.
    struct IO: Sendable {
        /// `write(2)`: bytes written, or `-errno`.
        var write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Int
        /// `fsync(2)`: 0, or `-errno`.
        var fsync: @Sendable (_ descriptor: Int32) -> Int32
        /// `rename(2)`: 0, or `-errno`.
        var rename: @Sendable (_ from: String, _ to: String) -> Int32
        /// Starts writing a file's data to disk without waiting for it (`sync_file_range(2)` with
        /// `SYNC_FILE_RANGE_WRITE` on Linux; nothing elsewhere). A set of files starts all its writes this way
        /// before waiting for any (``StagedFile/commitTogether(_:)``); it is a hint, so its result is ignored.
        var startWriteback: @Sendable (_ descriptor: Int32) -> Void = { descriptor in
            _ = IO.syncFileRange?(descriptor, 0, 0, 2)  // SYNC_FILE_RANGE_WRITE
        }

        /// glibc's `sync_file_range(2)`, looked up at run time: Swift's Glibc module hides it behind
        /// `_GNU_SOURCE`. Nil where the C library has none (Darwin).
        static let syncFileRange: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32)? = {
            #if os(Linux)
                guard let symbol = dlsym(nil, "sync_file_range") else { return nil }
                return unsafeBitCast(symbol, to: (@convention(c) (Int32, Int64, Int64, UInt32) -> Int32).self)
            #else
                return nil
            #endif
        }()

        /// The real system calls.
        static let posix = IO(
            write: { descriptor, bytes in
                guard let base = bytes.baseAddress else { return 0 }
                #if canImport(Glibc)
                    let written = Glibc.write(descriptor, base, bytes.count)
                #else
                    let written = Darwin.write(descriptor, base, bytes.count)
                #endif
                return written >= 0 ? written : -Int(errno)
            },
            fsync: { descriptor in
                #if canImport(Glibc)
                    // The data, not the timestamps, is what must be on disk before the rename.
                    Glibc.fdatasync(descriptor) == 0 ? 0 : -errno
                #else
                    Darwin.fsync(descriptor) == 0 ? 0 : -errno
                #endif
            },
            rename: { from, to in
                #if canImport(Glibc)
                    Glibc.rename(from, to) == 0 ? 0 : -errno
                #else
                    Darwin.rename(from, to) == 0 ? 0 : -errno
                #endif
            })
    }

    /// A hidden temporary file next to a destination that becomes the destination only on `commit()`.
    ///
    /// 1. `init` looks at what the destination is (``Destination``): a missing path or a regular file gets
    ///    `.NAME.XXXXXX.tmp` in the same folder, made with `mkstemps` (same file system, so the final `rename` is
    ///    atomic); a symbolic link is followed to its file; a character device or FIFO is opened and written
    ///    through when allowed, never replaced; anything else is refused before a byte is written.
    /// 2. `write` and `seek` go straight to the descriptor; every return value is checked and a short
    ///    write is continued.
    /// 3. `commit` is `finishWriting` (set the usual permissions, `fsync`, close) then `publish` (rename over
    ///    the destination, sync the folder). Several files that must appear together finish writing first and
    ///    publish one after another (``StagedFile/commitTogether(_:)``).
    /// 4. Any failure on the way, `discard()`, or `deinit` before `publish` closes and unlinks the
    ///    temporary: the destination is either the complete new file or untouched, never partial.
    ///
    /// A process killed mid-write can leave the hidden `.tmp` behind (nothing can run then); the
    /// destination itself is still never partial. Writing through to a device or FIFO is not atomic: its
    /// reader sees the bytes as they are written.
    final class Temporary {
        /// The path the user asked for.
        let destination: String
        /// The file that is replaced: the destination, or the file its symbolic link points at.
        let target: String
        /// The hidden temporary's path; nil when writing through to a device or FIFO.
        let temporaryPath: String?
        private var descriptor: Int32
        private let io: IO
        private var isFinished = false
        private var isCommitted = false

        /// Creates the temporary file in the destination's folder, or opens a device or FIFO to write through.
        init(destination: String, io: IO = .posix, special: SpecialFiles = .refuse) throws {
            self.destination = destination
            self.io = io
            switch try AtomicFile.destination(of: destination, special: special) {
            case .stream(let path):
                target = path
                temporaryPath = nil
                descriptor = try AtomicFile.openStream(path, for: destination)
                return
            case .absent(let path), .regular(let path):
                target = path
            }
            let (folder, name) = Self.split(target)
            // Keep the hidden name within NAME_MAX (255) whatever the destination's name length.
            let shortName = String(decoding: Array(name.utf8.prefix(200)), as: UTF8.self)
            var template = Array("\(folder)/.\(shortName).XXXXXX.tmp".utf8CString)
            var made: Int32 = -1
            var failure: Int32 = 0
            let path = PendingTemporaries.create {
                made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    guard let base = buffer.baseAddress else { return -1 }
                    return mkstemps(base, 4)
                }
                failure = errno
                guard made >= 0 else { return nil }
                return template.withUnsafeBufferPointer { buffer in
                    buffer.baseAddress.map { String(cString: $0) } ?? ""
                }
            }
            guard let path, made >= 0 else {
                throw OutputFileError.system(.create, path: destination, code: failure)
            }
            descriptor = made
            temporaryPath = path
        }

        deinit { discard() }

        /// True when the bytes go straight into a character device or FIFO.
        var isWritingThrough: Bool { temporaryPath == nil }

        /// Writes all of `bytes` at the current offset; on failure removes the temporary and throws.
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            guard descriptor >= 0, !isFinished else { throw closedError() }
            var offset = 0
            while offset < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                let result = io.write(descriptor, rest)
                if result == -Int(EINTR) { continue }
                guard result > 0 else {
                    // Zero bytes for a non-empty write cannot progress; report it as an I/O error.
                    let code = result < 0 ? Int32(-result) : EIO
                    discard()
                    throw OutputFileError.system(.write, path: destination, code: code)
                }
                offset += result
            }
        }

        /// Moves the write position to `offset` bytes from the start.
        func seek(to offset: Int) throws {
            guard descriptor >= 0, !isFinished else { throw closedError() }
            guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
                let code = errno
                discard()
                throw OutputFileError.system(.write, path: destination, code: code)
            }
        }

        /// Flushes to disk and moves the file into place, then makes the rename durable by syncing the folder —
        /// unless the caller commits several files and syncs once last.
        func commit(syncingFolder: Bool = true) throws {
            try finishWriting()
            try publish(syncingFolder: syncingFolder)
        }

        /// Starts writing the bytes to disk without waiting (``IO/startWriteback``); nothing for a device or FIFO.
        func startWriteback() {
            guard descriptor >= 0, !isFinished, !isWritingThrough else { return }
            io.startWriteback(descriptor)
        }

        /// Sets the usual permissions, flushes the bytes to disk and closes the temporary; it is then ready to
        /// `publish`. A device or FIFO is just closed.
        func finishWriting() throws {
            guard descriptor >= 0, !isFinished else { throw closedError() }
            if !isWritingThrough {
                _ = fchmod(descriptor, 0o666 & ~Self.processUmask)
                let synced = io.fsync(descriptor)
                if synced != 0 {
                    discard()
                    throw OutputFileError.system(.write, path: destination, code: -synced)
                }
            }
            let closed = close(descriptor)
            let closeError = errno
            descriptor = -1
            if closed != 0 {
                discard()
                throw OutputFileError.system(.write, path: destination, code: closeError)
            }
            isFinished = true
        }

        /// Renames the finished temporary over the destination (nothing to do for a device or FIFO).
        func publish(syncingFolder: Bool = true) throws {
            guard isFinished, !isCommitted else { throw closedError() }
            guard let temporaryPath else {
                isCommitted = true
                return
            }
            let renamed = io.rename(temporaryPath, target)
            if renamed != 0 {
                discard()
                throw OutputFileError.system(.rename, path: destination, code: -renamed)
            }
            isCommitted = true
            PendingTemporaries.remove(temporaryPath)
            if syncingFolder { Self.syncFolder(of: target) }
        }

        /// Closes and removes the temporary unless it was published. Safe to call more than once.
        func discard() {
            if descriptor >= 0 {
                _ = close(descriptor)
                descriptor = -1
            }
            if !isCommitted {
                if let temporaryPath {
                    _ = unlink(temporaryPath)
                    PendingTemporaries.remove(temporaryPath)
                }
                isCommitted = true  // nothing left to remove
            }
            isFinished = true
        }

        private func closedError() -> OutputFileError {
            OutputFileError(.write, path: destination, reason: "the file was already finished or abandoned")
        }

        /// The folder (`.` when none) and the last path component.
        static func split(_ path: String) -> (folder: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return (".", path) }
            let folder = String(path[..<slash])
            return (folder.isEmpty ? "/" : folder, String(path[path.index(after: slash)...]))
        }

        /// The process umask, read once (the process never changes it).
        static let processUmask: mode_t = currentUmask()

        /// The process umask, read without changing it (from `/proc/self/status`; 022 when unknown).
        static func currentUmask() -> mode_t {
            guard let file = fopen("/proc/self/status", "r") else { return 0o022 }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 256)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                if text.hasPrefix("Umask:") {
                    let digits = text.dropFirst(6).trimmingCharacters(in: " \t\n")
                    return mode_t(digits, radix: 8) ?? 0o022
                }
            }
            return 0o022
        }

        /// Makes a rename to `path` durable by syncing its folder; failures are ignored (the data itself is
        /// already synced).
        static func syncFolder(of path: String) {
            let folder = split(path).folder
            let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY)
            guard folderDescriptor >= 0 else { return }
            _ = fsync(folderDescriptor)
            _ = close(folderDescriptor)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let text = Substring(self)
        let start = text.firstIndex { !set.contains($0) } ?? text.endIndex
        let end = text.lastIndex { !set.contains($0) }.map { text.index(after: $0) } ?? start
        return start < end ? text[start..<end] : text[start..<start]
    }
}
