import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Creating, checking and removing the per-process private data folder.
extension EspeakDataFolder {
    /// The start of every private folder's name in the temporary folder (`mkdtemp` adds six characters).
    static let folderPrefix = "earshot-espeak-data-"

    /// Folders this process created, removed at exit.
    private static let created = CreatedFolders()

    /// Held while a private folder is found or made and filled, and while the folders are removed at exit.
    private static let making = NSLock()

    /// Runs `body`, which finds, makes or adds to a private folder, so that the removal at exit waits for it to end.
    static func whileMaking<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        making.lock()
        defer { making.unlock() }
        return try body()
    }

    /// Where private folders are made: `$TMPDIR` when set (the user's choice, so a missing one is reported by
    /// name), else the first directory of `$XDG_RUNTIME_DIR` (the user's own memory-backed folder), `/dev/shm`
    /// (memory-backed) and `/tmp`.
    ///
    /// The folder holds a few hundred symbolic links. On a disk-backed `/tmp` creating them was measured at
    /// 165 ms (0.75 ms each), in every process before its first phrase; in memory-backed folders, 1 ms.
    static func baseFolder(
        environment: [String: String] = ProcessEnvironment.current,
        isDirectory: (String) -> Bool = { path in
            var directory: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
        }
    ) -> String {
        let chosen = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        let candidates = [environment["XDG_RUNTIME_DIR"], "/dev/shm", "/tmp"].compactMap { $0 }
        let found = chosen ?? candidates.first { $0.hasPrefix("/") && isDirectory($0) } ?? "/tmp"
        return found.hasSuffix("/") ? found : found + "/"
    }

    /// Creates a fresh folder with `mkdtemp` (mode 0700) in ``baseFolder(environment:isDirectory:)``, checks it
    /// is private and ours, and registers it for removal when the process exits.
    static func makePrivateFolder() throws(EspeakError) -> String {
        let base = baseFolder()
        var template = Array((base + folderPrefix + "XXXXXX").utf8CString)
        let path: String? = template.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress, mkdtemp(base) != nil else { return nil }
            return String(cString: base)
        }
        guard let path else {
            throw .dataFolderUnavailable(
                path: base + folderPrefix + "XXXXXX", reason: String(cString: strerror(errno)))
        }
        created.add(path)
        if let problem = privacyProblem(at: path) {
            removeFolder(path)
            throw .dataFolderUnavailable(path: path, reason: problem)
        }
        return path
    }

    /// Why `path` is not a private folder of `owner` (a real directory, not a link, owned by `owner`,
    /// with no access for group or others), or nil when it is.
    static func privacyProblem(at path: String, owner: uid_t = geteuid()) -> String? {
        var status = stat()
        guard lstat(path, &status) == 0 else { return "cannot inspect it (\(String(cString: strerror(errno))))" }
        if status.st_mode & S_IFMT != S_IFDIR { return "it is not a directory" }
        if status.st_uid != owner { return "it belongs to user \(status.st_uid), not \(owner)" }
        if status.st_mode & 0o077 != 0 {
            return "its mode is \(String(status.st_mode & 0o777, radix: 8)), not private (700)"
        }
        return nil
    }

    /// Removes a folder this process created (links inside are removed, never followed).
    static func removeFolder(_ path: String) {
        removeTree(path)
        created.remove(path)
    }

    /// Stops counting `path` among the folders removed at exit (it was renamed to be kept).
    static func forget(_ path: String) {
        created.remove(path)
    }
}

/// The private folders a process created; the first one registered installs an exit handler that
/// removes them all.
private final class CreatedFolders: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    private var handlerInstalled = false

    func add(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.append(path)
        if !handlerInstalled {
            handlerInstalled = true
            atexit { EspeakDataFolder.removeCreatedFolders() }
        }
    }

    func remove(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.removeAll { $0 == path }
    }

    func takeAll() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        let taken = paths
        paths = []
        return taken
    }
}

extension EspeakSynthesizer {
    /// Removes the private espeak-ng data folders this process made, for exits that skip `atexit`
    /// handlers (`_exit` after Ctrl-C); an ordinary exit removes them by itself. espeak-ng cannot load
    /// voices afterwards, so call it only on the way out.
    public static func removePrivateDataFolders() {
        EspeakDataFolder.removeCreatedFolders()
    }
}

extension EspeakDataFolder {
    /// Removes every private folder this process created (the exit handler), once no folder is being made.
    static func removeCreatedFolders() {
        making.withLock {
            for path in created.takeAll() { removeTree(path) }
        }
    }
}
