import Foundation

/// Where Earshot's shared files (voices, scripts, docs) are: a checkout, or an install made by
/// `make install PREFIX=…`, which puts the binary in `PREFIX/bin/` and the rest in `PREFIX/share/earshot/`.
///
/// The lookup order, first found wins:
/// 1. for voices only: `--voices DIR`, then `$EARSHOT_VOICES`;
/// 2. walking up from the current directory to a folder that holds the file (a checkout, or any project that
///    keeps its own `Voices/`, `Scripts/` and `docs/`);
/// 3. the install's share folder, `../share/earshot` from the executable (symbolic links resolved);
/// 4. walking up from the executable (a binary built inside a checkout, under `.build/`).
public enum InstallLayout {
    /// The share folder's path below the install prefix.
    public static let sharePath = "share/earshot"

    /// The share folder of the install the executable belongs to, when it exists.
    public static func shareFolder(executablePath: String? = ExecutablePath.current) -> String? {
        guard let executablePath else { return nil }
        let prefix = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent()
            .deletingLastPathComponent()
        let share = prefix.appendingPathComponent(sharePath).standardizedFileURL.path
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: share, isDirectory: &isDirectory) && isDirectory.boolValue
            ? share : nil
    }

    /// The first folder, in the lookup order, that holds `relativePath` (e.g. `docs/scenario-format.md` or
    /// `Scripts`); the file's full path, or nil.
    public static func locate(
        _ relativePath: String, currentDirectory: String = FileManager.default.currentDirectoryPath,
        executablePath: String? = ExecutablePath.current
    ) -> String? {
        if let found = walkUp(from: currentDirectory, to: relativePath) { return found }
        if let share = shareFolder(executablePath: executablePath) {
            let candidate = share + "/" + relativePath
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        guard let executablePath else { return nil }
        let folder = URL(fileURLWithPath: executablePath).resolvingSymlinksInPath().deletingLastPathComponent().path
        return walkUp(from: folder, to: relativePath)
    }

    /// `start/relativePath`, or the same under the nearest ancestor of `start` that has it.
    static func walkUp(from start: String, to relativePath: String) -> String? {
        var folder = URL(fileURLWithPath: start).standardizedFileURL
        while true {
            let candidate = folder.appendingPathComponent(relativePath).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }
}
