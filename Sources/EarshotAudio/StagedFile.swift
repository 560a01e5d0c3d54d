/// A whole file written now and made visible later: for outputs that must appear together or not at all.
///
/// The bytes go to a hidden temporary next to `path` (``AtomicFile``'s machinery); ``commit()`` renames it into
/// place; ``discard()`` or releasing the value before committing removes it. A render stages its WAV
/// (``WAVWriter/stage()``), transcript, timeline and review page, then ``commitTogether(_:)`` moves them into
/// place as one step that Ctrl-C and SIGTERM cannot split.
///
/// A staged file is always a regular file: an existing device, FIFO or folder at `path` is refused, and a
/// symbolic link is followed to the file it points at.
public final class StagedFile {
    /// The destination.
    public let path: String
    private let file: AtomicFile.Temporary
    private var isDone = false

    /// Writes `text` as UTF-8 to a temporary for `path`.
    ///
    /// - Throws: `OutputFileError` (unwritable folder, disk full, a path that is not a regular file); nothing is
    ///   left behind then.
    public convenience init(path: String, text: String) throws {
        try self.init(path: path, text: text, io: .posix)
    }

    /// Writes with injectable system calls (the test seam).
    init(path: String, text: String, io: AtomicFile.IO) throws {
        self.path = path
        file = try AtomicFile.Temporary(destination: path, io: io)
        let bytes = Array(text.utf8)
        try bytes.withUnsafeBytes { try file.write($0) }
    }

    /// Takes over a temporary whose bytes are complete (a finished WAV).
    init(path: String, temporary: AtomicFile.Temporary) {
        self.path = path
        file = temporary
    }

    deinit { discard() }

    /// Where the bytes are until the file is committed: its hidden temporary (or the destination itself for a
    /// device written through).
    public var contentsPath: String { file.temporaryPath ?? file.target }

    /// Moves the file into place. Pass `syncingFolder: false` for all but the last of several files committed
    /// into one folder: the last commit's folder sync makes every rename durable.
    ///
    /// - Throws: `OutputFileError`; the destination is then untouched.
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

    /// Moves `files` into place together.
    ///
    /// 1. The set is flushed to disk as one: every file's writing to disk is started (on Linux), then each file is
    ///    waited for and closed. The disk gets the whole set at once, and each wait is for that file's own bytes.
    ///    (A `syncfs` of the file system costs about the same but also waits for every other program's unwritten
    ///    data, the phrase cache's included: up to 64 ms against 2 ms, measured.) A failure here (disk full, an
    ///    I/O error) removes them all and leaves every destination untouched.
    /// 2. The renames run one after another inside ``PendingTemporaries/publishing(_:)``: Ctrl-C or SIGTERM
    ///    waits for the last one, so an interrupted command leaves the complete old set or the complete new one.
    /// 3. Each folder involved is synced once, making the renames durable.
    ///
    /// Only SIGKILL or a power cut can land between two renames; the files then disagree, which
    /// `earshot verify` reports. A rename failing after earlier ones succeeded (rare: the paths were checked
    /// before any work) leaves those earlier files in place; the error names the one that failed.
    ///
    /// - Throws: `OutputFileError` naming the file that failed.
    public static func commitTogether(_ files: [StagedFile]) throws {
        let pending = files.filter { !$0.isDone }
        do {
            for file in pending { file.file.startWriteback() }
            for file in pending { try file.file.finishWriting() }
        } catch {
            for file in pending { file.discard() }
            throw error
        }
        var folders: [String] = []
        try PendingTemporaries.publishing {
            for (index, file) in pending.enumerated() {
                do {
                    file.isDone = true
                    try file.file.publish(syncingFolder: false)
                    let folder = AtomicFile.Temporary.split(file.file.target).folder
                    if !folders.contains(folder) { folders.append(folder) }
                } catch {
                    for rest in pending[(index + 1)...] { rest.discard() }
                    throw error
                }
            }
        }
        for folder in folders { AtomicFile.Temporary.syncFolder(of: folder + "/.") }
    }
}
