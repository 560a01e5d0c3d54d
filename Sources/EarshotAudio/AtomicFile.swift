import Foundation

/// Writes whole files so that readers only ever see the old file or the complete new one.
///
/// Every output Earshot produces (WAV, JSON Lines, WebVTT, HTML) goes through here or through
/// `WAVWriter`, which shares the same machinery: the bytes go to a hidden temporary file in the
/// destination's folder, are flushed with `fsync`, and the temporary is renamed over the destination.
/// On any failure (disk full, I/O error, unwritable folder) the temporary is removed and an
/// `OutputFileError` names the destination and the operating system's reason. New files get mode
/// `0666 & ~umask`.
///
/// An existing destination is never replaced by something else: a symbolic link keeps pointing where it
/// did and the file it points at gets the new contents; a character device or FIFO (`/dev/null`, a named
/// pipe) is written through as a shell's `>` would; a folder, socket or block device is refused. See
/// ``AtomicFile/Destination``.
public enum AtomicFile {
    /// Writes `data` to `path` atomically.
    ///
    /// - Throws: `OutputFileError`, for example `cannot write out/report.html: No space left on device`.
    public static func write(_ data: Data, to path: String) throws {
        try write(data, to: path, io: .posix)
    }

    /// Writes `text` as UTF-8 to `path` atomically.
    ///
    /// - Throws: `OutputFileError`.
    public static func write(_ text: String, to path: String) throws {
        try write(Data(text.utf8), to: path, io: .posix)
    }

    /// Writes with injectable system calls (the test seam).
    static func write(_ data: Data, to path: String, io: IO) throws {
        let file = try Temporary(destination: path, io: io, special: .writeThrough)
        try data.withUnsafeBytes { bytes in
            try file.write(bytes)
        }
        try file.commit()
    }
}
