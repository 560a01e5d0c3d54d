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
    /// 1. `init` creates `.NAME.XXXXXX.tmp` in the destination's folder with `mkstemps` (same file
    ///    system, so the final `rename` is atomic).
    /// 2. `write` and `seek` go straight to the descriptor; every return value is checked and a short
    ///    write is continued.
    /// 3. `commit` sets the usual permissions, `fsync`s, closes and renames over the destination, then
    ///    syncs the folder.
    /// 4. Any failure on the way, `discard()`, or `deinit` before `commit` closes and unlinks the
    ///    temporary: the destination is either the complete new file or untouched, never partial.
    ///
    /// A process killed mid-write can leave the hidden `.tmp` behind (nothing can run then); the
    /// destination itself is still never partial.
    final class Temporary {
        /// The path the user asked for.
        let destination: String
        /// The hidden temporary's path.
        let temporaryPath: String
        private var descriptor: Int32
        private let io: IO
        private var isCommitted = false

        /// Creates the temporary file in the destination's folder.
        init(destination: String, io: IO = .posix) throws {
            self.destination = destination
            self.io = io
            let (folder, name) = Self.split(destination)
            // Keep the hidden name within NAME_MAX (255) whatever the destination's name length.
            let shortName = String(decoding: Array(name.utf8.prefix(200)), as: UTF8.self)
            var template = Array("\(folder)/.\(shortName).XXXXXX.tmp".utf8CString)
            let made = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
                guard let base = buffer.baseAddress else { return -1 }
                return mkstemps(base, 4)
            }
            guard made >= 0 else {
                throw AudioFileError.system(.create, path: destination, code: errno)
            }
            descriptor = made
            temporaryPath = template.withUnsafeBufferPointer { buffer in
                buffer.baseAddress.map { String(cString: $0) } ?? ""
            }
            PendingTemporaries.add(temporaryPath)
        }

        deinit { discard() }

        /// Writes all of `bytes` at the current offset; on failure removes the temporary and throws.
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            guard descriptor >= 0 else { throw closedError() }
            var offset = 0
            while offset < bytes.count {
                let rest = UnsafeRawBufferPointer(rebasing: bytes[offset...])
                let result = io.write(descriptor, rest)
                if result == -Int(EINTR) { continue }
                guard result > 0 else {
                    // Zero bytes for a non-empty write cannot progress; report it as an I/O error.
                    let code = result < 0 ? Int32(-result) : EIO
                    discard()
                    throw AudioFileError.system(.write, path: destination, code: code)
                }
                offset += result
            }
        }

        /// Moves the write position to `offset` bytes from the start.
        func seek(to offset: Int) throws {
            guard descriptor >= 0 else { throw closedError() }
            guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else {
                let code = errno
                discard()
                throw AudioFileError.system(.write, path: destination, code: code)
            }
        }

        /// Flushes to disk and renames the temporary onto the destination, then makes the rename durable by
        /// syncing the folder — unless the caller commits several files in one folder and syncs it once last.
        func commit(syncingFolder: Bool = true) throws {
            guard descriptor >= 0 else { throw closedError() }
            _ = fchmod(descriptor, 0o666 & ~Self.processUmask)
            let synced = io.fsync(descriptor)
            if synced != 0 {
                discard()
                throw AudioFileError.system(.write, path: destination, code: -synced)
            }
            let closed = close(descriptor)
            let closeError = errno
            descriptor = -1
            if closed != 0 {
                discard()
                throw AudioFileError.system(.write, path: destination, code: closeError)
            }
            let renamed = io.rename(temporaryPath, destination)
            if renamed != 0 {
                discard()
                throw AudioFileError.system(.rename, path: destination, code: -renamed)
            }
            isCommitted = true
            PendingTemporaries.remove(temporaryPath)
            if syncingFolder { Self.syncFolder(Self.split(destination).folder) }
        }

        /// Closes and removes the temporary unless it was committed. Safe to call more than once.
        func discard() {
            if descriptor >= 0 {
                _ = close(descriptor)
                descriptor = -1
            }
            if !isCommitted {
                _ = unlink(temporaryPath)
                PendingTemporaries.remove(temporaryPath)
                isCommitted = true  // nothing left to remove
            }
        }

        private func closedError() -> AudioFileError {
            AudioFileError(.write, path: destination, reason: "the file was already finished or abandoned")
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

        /// Makes the rename durable; failures are ignored (the data itself is already synced).
        private static func syncFolder(_ folder: String) {
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
