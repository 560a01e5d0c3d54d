import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Filling and removing the private data folder with plain system calls.
///
/// The folder holds a few hundred links, made and removed in every process that speaks, before its first phrase
/// and at its exit. Through `FileManager` that was 1.9 ms to make and 1.4 ms to remove (perf, 20 renders of a
/// short script); one `symlinkat` or `unlinkat` per entry, relative to an open folder, costs a fraction of it.
extension EspeakDataFolder {
    /// A failed system call on `path`.
    struct TreeError: Error, CustomStringConvertible {
        var operation: String
        var path: String
        var code: Int32
        var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
    }

    /// Links every entry of `source` (but `excluded`) into the folder `destination`, each pointing at
    /// `source/<entry>`.
    static func linkEntries(of source: String, into destination: String, excluding excluded: Set<String>) throws {
        guard let listing = opendir(source) else { throw TreeError(operation: "opendir", path: source, code: errno) }
        defer { closedir(listing) }
        let target = open(destination, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard target >= 0 else { throw TreeError(operation: "open", path: destination, code: errno) }
        defer { close(target) }
        while let entry = readdir(listing) {
            let name = FolderListing.entryName(entry)
            if name == "." || name == ".." || excluded.contains(name) { continue }
            guard symlinkat(source + "/" + name, target, name) == 0 else {
                throw TreeError(operation: "symlink", path: destination + "/" + name, code: errno)
            }
        }
    }

    /// Creates the folder `path` with mode 0700.
    static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 else { throw TreeError(operation: "mkdir", path: path, code: errno) }
    }

    /// Writes `contents` to a new file at `path` (mode 0600); fails when something is already there.
    static func writeNewFile(_ path: String, _ contents: Data) throws {
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw TreeError(operation: "create", path: path, code: errno) }
        defer { close(file) }
        try contents.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let written = write(file, base + offset, buffer.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { throw TreeError(operation: "write", path: path, code: errno) }
                offset += written
            }
        }
    }

    /// Removes the folder `path` and everything in it. Links are removed, never followed; a link given as
    /// `path` is not a folder and is left alone. Best effort: what cannot be removed stays.
    static func removeTree(_ path: String) {
        let folder = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard folder >= 0 else { return }
        emptyFolder(folder)
        close(folder)
        rmdir(path)
    }

    /// Removes everything inside the open folder `folder` (the descriptor stays open).
    private static func emptyFolder(_ folder: Int32) {
        let reading = dup(folder)
        guard reading >= 0 else { return }
        guard let listing = fdopendir(reading) else {
            close(reading)
            return
        }
        defer { closedir(listing) }
        var subfolders: [String] = []
        while let entry = readdir(listing) {
            let name = FolderListing.entryName(entry)
            if name == "." || name == ".." { continue }
            if isFolder(entry, name, in: folder) {
                subfolders.append(name)
            } else {
                unlinkat(folder, name, 0)
            }
        }
        for name in subfolders {
            let inner = openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard inner >= 0 else { continue }
            emptyFolder(inner)
            close(inner)
            unlinkat(folder, name, AT_REMOVEDIR)
        }
    }

    /// True when the entry is a real folder (not a link to one); asks the file system when the listing does not say.
    private static func isFolder(_ entry: UnsafeMutablePointer<dirent>, _ name: String, in folder: Int32) -> Bool {
        switch Int32(entry.pointee.d_type) {
        case Int32(DT_DIR): return true
        case Int32(DT_UNKNOWN):
            var status = stat()
            return fstatat(folder, name, &status, AT_SYMLINK_NOFOLLOW) == 0 && status.st_mode & S_IFMT == S_IFDIR
        default: return false
        }
    }
}
