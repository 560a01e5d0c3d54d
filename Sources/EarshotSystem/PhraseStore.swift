import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The folder of cached phrases: whole-file reads, atomic writes, least-recently-used eviction.
///
/// Every entry is a file `<32 hex digits>.phrase` in ``folder``. A write goes to a hidden temporary file
/// (`.tmp-…`) in the same folder that is renamed over the entry, so a reader in this or another process sees
/// the old entry, the new one or none, never half of one; no lock is taken, and two processes writing the same
/// entry both leave a whole one. An entry's modification time is its last use: set when written and on every
/// hit. The folder is bounded in bytes: each process keeps a running estimate of the folder's size (one scan
/// at its first write, then the sizes it writes), and only when the estimate passes the bound does it scan the
/// folder and remove the least recently used entries until they fill at most nine tenths of it.
final class PhraseStore: @unchecked Sendable {
    /// The folder holding the entries.
    let folder: String
    /// The bound on the entries' total size, in bytes.
    let limit: Int

    private let lock = NSLock()
    private var estimate: Int?

    /// A temporary file older than this was left by a writer that died: the eviction scan removes it.
    static let staleTemporaryAge: TimeInterval = 600
    /// The prefix of temporary files.
    static let temporaryPrefix = ".tmp-"

    init(folder: String, limit: Int) {
        self.folder = folder
        self.limit = limit
    }

    /// The bytes of entry `name`, or nil when there is none (or it cannot be read).
    func read(_ name: String) -> Data? {
        FileManager.default.contents(atPath: folder + "/" + name)
    }

    /// Marks entry `name` as just used.
    func touch(_ name: String) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: folder + "/" + name)
    }

    /// Stores `data` as entry `name` atomically, creating the folder when needed, then evicts if over the bound.
    ///
    /// - Throws: `CocoaError`/`POSIXError` from creating the folder or writing (the caller warns once).
    func write(_ data: Data, as name: String) throws {
        try Self.createFolder(folder)
        let temporary = folder + "/" + Self.temporaryPrefix + "\(getpid())-" + UUID().uuidString
        let previous = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + name)[.size] as? Int) ?? 0
        do {
            try Self.writeFile(data, to: temporary)
            guard rename(temporary, folder + "/" + name) == 0 else { throw Self.posixError() }
        } catch {
            unlink(temporary)
            throw error
        }
        let overBound = lock.withLock { () -> Bool in
            let known = estimate ?? scan().total
            estimate = known + data.count - (estimate == nil ? 0 : previous)
            return (estimate ?? 0) > limit
        }
        if overBound { evict() }
    }

    /// Creates `path` and its missing parents (mode 0777 less the umask).
    ///
    /// - Throws: `POSIXError` with the system's reason (`Not a directory`, `Permission denied`).
    static func createFolder(_ path: String) throws {
        var built = ""
        for component in path.split(separator: "/") {
            built += "/" + component
            if mkdir(built, 0o777) == 0 || errno == EEXIST { continue }
            throw posixError()
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw POSIXError(.ENOTDIR)
        }
    }

    /// Writes `data` to a new file at `path` (no `fsync`: a cache entry lost to a crash is only a miss).
    private static func writeFile(_ data: Data, to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw posixError() }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Glibc.write(descriptor, buffer.baseAddress?.advanced(by: offset), buffer.count - offset)
                if written < 0, errno == EINTR { continue }
                guard written > 0 else { throw posixError() }
                offset += written
            }
        }
    }

    private static func posixError() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }

    /// The entries (name, size, last use), oldest use first, and their total size; stale temporaries removed.
    func scan() -> (entries: [(name: String, size: Int, used: Date)], total: Int) {
        let manager = FileManager.default
        let names = (try? manager.contentsOfDirectory(atPath: folder)) ?? []
        var entries: [(name: String, size: Int, used: Date)] = []
        let now = Date()
        for name in names {
            guard let attributes = try? manager.attributesOfItem(atPath: folder + "/" + name),
                attributes[.type] as? FileAttributeType == .typeRegular
            else { continue }
            let used = attributes[.modificationDate] as? Date ?? .distantPast
            if name.hasPrefix(Self.temporaryPrefix) {
                if now.timeIntervalSince(used) > Self.staleTemporaryAge {
                    try? manager.removeItem(atPath: folder + "/" + name)
                }
                continue
            }
            guard Self.isEntryName(name) else { continue }
            entries.append((name, attributes[.size] as? Int ?? 0, used))
        }
        entries.sort { ($0.used, $0.name) < ($1.used, $1.name) }
        return (entries, entries.reduce(0) { $0 + $1.size })
    }

    /// Removes the least recently used entries until the rest fill at most nine tenths of the bound.
    func evict() {
        lock.withLock {
            let (entries, scanned) = scan()
            var total = scanned
            let target = limit / 10 * 9
            var index = 0
            while total > target, index < entries.count {
                try? FileManager.default.removeItem(atPath: folder + "/" + entries[index].name)
                total -= entries[index].size
                index += 1
            }
            estimate = total
        }
    }

    /// True for the names of files this store writes and owns: entries and temporaries.
    static func isOwnedName(_ name: String) -> Bool {
        isEntryName(name) || name.hasPrefix(temporaryPrefix)
    }

    /// True for `<32 lower-case hex digits>.phrase`.
    static func isEntryName(_ name: String) -> Bool {
        let suffix = "." + PhraseCache.entryExtension
        guard name.hasSuffix(suffix) else { return false }
        let stem = name.dropLast(suffix.count)
        return stem.count == 32 && stem.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Removes every entry and temporary file; returns how many files and bytes were removed. Nothing else in
    /// the folder is touched, and the folder itself is removed only when that leaves it empty.
    func clear() -> (files: Int, bytes: Int) {
        lock.withLock {
            let manager = FileManager.default
            var files = 0
            var bytes = 0
            for name in (try? manager.contentsOfDirectory(atPath: folder)) ?? [] where Self.isOwnedName(name) {
                let path = folder + "/" + name
                guard let attributes = try? manager.attributesOfItem(atPath: path),
                    attributes[.type] as? FileAttributeType == .typeRegular
                else { continue }
                if (try? manager.removeItem(atPath: path)) != nil {
                    files += 1
                    bytes += attributes[.size] as? Int ?? 0
                }
            }
            if (try? manager.contentsOfDirectory(atPath: folder))?.isEmpty == true {
                try? manager.removeItem(atPath: folder)
            }
            estimate = nil
            return (files, bytes)
        }
    }
}
