#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension AtomicFile {
    /// What an output path already is, decided before anything is written.
    ///
    /// - A missing path is created.
    /// - A regular file is replaced atomically (a hidden temporary renamed over it).
    /// - A symbolic link is followed: the file it points at is replaced (or written through), and the link
    ///   itself stays. A link to a missing file is refused.
    /// - A character device or FIFO (`/dev/null`, a named pipe) is written through when the caller allows it
    ///   (``SpecialFiles/writeThrough``): opened for writing as it is, never replaced by a regular file.
    ///   Otherwise, and always for a folder, socket or block device, the path is refused.
    enum Destination: Equatable {
        /// Nothing is there yet: create `path`.
        case absent(path: String)
        /// A regular file at `path` (the link's target when the user named a link): replace it.
        case regular(path: String)
        /// A character device or FIFO at `path`: write straight into it.
        case stream(path: String)
    }

    /// What an output may do with an existing character device or FIFO.
    public enum SpecialFiles: Sendable {
        /// Write into it as a shell redirection would (`--junit /dev/null`).
        case writeThrough
        /// Refuse it: the output must be a regular file (a WAV, which is patched after writing, or one of a
        /// render's files that must appear together).
        case refuse
    }

    private static let typeMask: mode_t = 0o170_000

    /// What `path` names now, following symbolic links.
    ///
    /// - Throws: `OutputFileError` naming `path` for anything that is not to be written.
    static func destination(of path: String, special: SpecialFiles) throws -> Destination {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { return .absent(path: path) }
            throw OutputFileError.system(.create, path: path, code: code)
        }
        var target = path
        if info.st_mode & typeMask == 0o120_000 {
            guard let resolved = realpath(path, nil) else {
                throw OutputFileError(
                    .create, path: path,
                    reason: "it is a symbolic link to \(linkText(path)), which does not exist; "
                        + "give the file itself or create it first")
            }
            target = String(cString: resolved)
            free(resolved)
            guard stat(target, &info) == 0 else { throw OutputFileError.system(.create, path: path, code: errno) }
        }
        let kind = info.st_mode & typeMask
        switch kind {
        case 0o100_000:
            return .regular(path: target)
        case 0o020_000, 0o010_000:
            guard special == .writeThrough else {
                throw OutputFileError(
                    .create, path: path,
                    reason: "it is a \(kindName(kind)), not a regular file; this output is written only to a "
                        + "regular file, so give another path")
            }
            return .stream(path: target)
        case 0o040_000:
            throw OutputFileError(.create, path: path, reason: "it is a folder; give a file path inside it")
        default:
            throw OutputFileError(
                .create, path: path,
                reason: "it is a \(kindName(kind)), not a regular file; give another path")
        }
    }

    /// `character device`, `FIFO (named pipe)`, … for a `st_mode` file type.
    static func kindName(_ kind: mode_t) -> String {
        switch kind {
        case 0o020_000: "character device"
        case 0o010_000: "FIFO (named pipe)"
        case 0o060_000: "block device"
        case 0o140_000: "socket"
        case 0o040_000: "folder"
        case 0o120_000: "symbolic link"
        default: "special file"
        }
    }

    /// Where a symbolic link points, as written in the link.
    private static func linkText(_ path: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return "a missing file" }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Opens a character device or FIFO for writing, checking it is still one once open.
    ///
    /// A FIFO blocks here until a reader opens it, as a shell's `>` does.
    static func openStream(_ target: String, for path: String) throws -> Int32 {
        var descriptor: Int32
        repeat {
            descriptor = open(target, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        } while descriptor < 0 && errno == EINTR
        guard descriptor >= 0 else { throw OutputFileError.system(.create, path: path, code: errno) }
        var info = stat()
        let kind = fstat(descriptor, &info) == 0 ? info.st_mode & typeMask : 0
        guard kind == 0o020_000 || kind == 0o010_000 else {
            _ = close(descriptor)
            throw OutputFileError(.create, path: path, reason: "it changed into a \(kindName(kind)) while opening")
        }
        return descriptor
    }
}

extension AtomicFile {
    /// Checks, before any work, that `path` may be written as an output: missing, a regular file, a symbolic
    /// link to one, or (when `special` allows) a character device or FIFO.
    ///
    /// - Throws: `OutputFileError` naming `path` and what it is.
    public static func checkDestination(_ path: String, special: SpecialFiles = .refuse) throws {
        _ = try destination(of: path, special: special)
    }
}
