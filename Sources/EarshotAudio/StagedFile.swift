/// A whole file written now and made visible later: for outputs that must appear together or not at all.
///
/// The bytes go to a hidden temporary next to `path` (``AtomicFile``'s machinery); ``commit()`` renames it into
/// place; ``discard()`` or releasing the value before committing removes it. A render stages its transcript and
/// timeline, streams the WAV, and commits the staged files only once the WAV is in place.
public final class StagedFile {
    /// The destination.
    public let path: String
    private let file: AtomicFile.Temporary
    private var isDone = false

    /// Writes `text` as UTF-8 to a temporary for `path`.
    ///
    /// - Throws: `AudioFileError` (unwritable folder, disk full); nothing is left behind then.
    public init(path: String, text: String) throws {
        self.path = path
        file = try AtomicFile.Temporary(destination: path)
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { try file.write($0) }
    }

    deinit { discard() }

    /// Moves the file into place. Pass `syncingFolder: false` for all but the last of several files committed
    /// into one folder: the last commit's folder sync makes every rename durable.
    ///
    /// - Throws: `AudioFileError`; the destination is then untouched.
    public func commit(syncingFolder: Bool = true) throws {
        guard !isDone else { return }
        isDone = true
        try file.commit(syncingFolder: syncingFolder)
    }

    /// Removes the temporary without touching the destination.
    public func discard() {
        guard !isDone else { return }
        isDone = true
        file.discard()
    }
}
