import EarshotCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Folders a command writes into (`samples -o`, `check --jsonl`, a replayed check's folders).
enum OutputFolders {
    /// Creates `path` and its missing parents with `mkdir(2)`, failing with the folder that could not be made and
    /// why (`Read-only file system`, `No space left on device`, a file of that name in the way): never a Foundation
    /// error's dump.
    static func create(_ path: String) throws(CommandFailure) {
        var built = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            built += "/" + component
            guard mkdir(built, 0o777) != 0 else { continue }
            let code = errno
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: built, isDirectory: &isDirectory)
            if code == EEXIST, exists, isDirectory.boolValue { continue }
            let shown = built.hasPrefix("./") ? String(built.dropFirst(2)) : built
            let reason = code == EEXIST && exists ? "a file of that name is in the way" : SystemReason.text(code)
            throw CommandFailure("cannot create the folder \(shown): \(reason)")
        }
    }
}
