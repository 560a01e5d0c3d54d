import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The espeak-ng library's version, remembered beside the phrase cache so a run answered from the cache
/// need not open the library to learn it.
///
/// Every cache key holds the library's version, and reading it (`espeak_Info`) means loading libespeak-ng
/// and the libraries it needs: 3-4 ms, more than a third of a warm check of one script. A stamp file in
/// the phrase folder records the version together with everything that decides which library file the
/// dynamic loader opens and what that file is:
///
/// - the library file the loader found (its path, device, inode, size, modification and change times; a
///   package upgrade replaces the file, so all of these change);
/// - the loader's cache `/etc/ld.so.cache` (rewritten by `ldconfig` whenever libraries are installed);
/// - `LD_LIBRARY_PATH`, `LD_PRELOAD` and `EARSHOT_ESPEAK_LIBRARY`;
/// - the `earshot` executable and its folder (a library placed beside it could be found first).
///
/// The version is taken from the stamp only when every one of these is as recorded; otherwise the library is
/// opened, its version read, and the stamp written again (atomically: a temporary file renamed over it). Each
/// executable and loader environment has its own stamp file, so two installs sharing a cache do not undo each
/// other's. A stamp that cannot be written is only a library load next time.
public enum EngineStamp {
    /// The first line of every stamp (its format).
    static let header = "earshot espeak-ng stamp 1"
    /// The environment variables that change which library the loader opens.
    static let loaderVariables = ["LD_LIBRARY_PATH", "LD_PRELOAD", "EARSHOT_ESPEAK_LIBRARY"]
    /// The loader's cache of where libraries are.
    static let loaderCache = "/etc/ld.so.cache"

    /// The version for the phrase cache in `folder`: remembered when still true, else read from the library
    /// (opening it) and remembered. Empty when the library cannot be opened.
    public static func version(
        rememberedIn folder: String, environment: [String: String] = ProcessEnvironment.current
    ) -> String {
        if let remembered = rememberedVersion(in: folder, environment: environment) { return remembered }
        let version = DeferredSynthesizer.libraryVersion()
        guard !version.isEmpty else { return version }
        let identity = self.identity(library: EspeakLibrary.name(), environment: environment)
        if let identity { remember(version, identity: identity, in: folder, environment: environment) }
        return version
    }

    /// The version the stamp in `folder` records, when the library and everything that decides which library
    /// is opened are as the stamp says; nil otherwise (no stamp, another file, another environment).
    public static func rememberedVersion(
        in folder: String, environment: [String: String] = ProcessEnvironment.current
    ) -> String? {
        rememberedStamp(in: folder, environment: environment)?.version
    }

    /// The whole stamp in `folder` (what identifies the executable, the loader and the library, then the version)
    /// when it still holds, as ``rememberedVersion(in:environment:)`` judges it; nil otherwise. Results that depend
    /// on the engine and on this executable's code are keyed by it (`earshot check`'s remembered runs).
    public static func rememberedStamp(
        in folder: String, environment: [String: String] = ProcessEnvironment.current
    ) -> (text: String, version: String)? {
        guard let data = FileManager.default.contents(atPath: stampPath(in: folder, environment: environment)),
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard lines.last == "" else { return nil }
        lines.removeLast()
        guard lines.count >= 3, lines[0] == header, lines[lines.count - 1].hasPrefix("version "),
            lines[1].hasPrefix("library ")
        else { return nil }
        let version = String(lines[lines.count - 1].dropFirst("version ".count))
        // The library line is `library <path> <identity>`; the path is everything before the identity's fields.
        let libraryFields = lines[1].dropFirst("library ".count).split(separator: " ")
        guard libraryFields.count > FileIdentity.fieldCount, !version.isEmpty else { return nil }
        let path = libraryFields.dropLast(FileIdentity.fieldCount).joined(separator: " ")
        guard let current = identity(library: path, environment: environment),
            current == lines.dropLast().joined(separator: "\n")
        else { return nil }
        return (text, version)
    }

    /// The stamp's lines (without the version) for the library at `path`; nil when it cannot be examined.
    static func identity(library path: String, environment: [String: String]) -> String? {
        guard let library = FileIdentity(path) else { return nil }
        let executable = executablePath()
        let executableFolder = (executable as NSString).deletingLastPathComponent
        var lines = [header, "library \(path) \(library)"]
        lines.append("loader-cache \(FileIdentity(loaderCache).map(String.init(describing:)) ?? "absent")")
        lines.append("executable \(executable) \(FileIdentity(executable).map(String.init(describing:)) ?? "absent")")
        lines.append(
            "executable-folder \(FileIdentity(executableFolder).map(String.init(describing:)) ?? "absent")")
        for name in loaderVariables { lines.append("\(name)=\(environment[name] ?? "")") }
        return lines.joined(separator: "\n")
    }

    /// The stamp's file in `folder`: `engine-<16 hex digits>.stamp`, one per executable and loader environment.
    static func stampPath(in folder: String, environment: [String: String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let parts = [executablePath()] + loaderVariables.map { environment[$0] ?? "" }
        for byte in parts.joined(separator: "\u{0}").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return folder + "/" + stampPrefix + String(repeating: "0", count: 16 - digits.count) + digits
            + stampSuffix
    }

    static let stampPrefix = "engine-"
    static let stampSuffix = ".stamp"

    /// True for a stamp's file name (`earshot cache clear` removes them with the entries).
    static func isStampName(_ name: String) -> Bool {
        guard name.hasPrefix(stampPrefix), name.hasSuffix(stampSuffix) else { return false }
        let digits = name.dropFirst(stampPrefix.count).dropLast(stampSuffix.count)
        return digits.count == 16 && digits.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// Writes the stamp through a temporary file renamed over it; a failure is silent (the next run opens the
    /// library again).
    static func remember(_ version: String, identity: String, in folder: String, environment: [String: String]) {
        let data = Data((identity + "\nversion \(version)\n").utf8)
        // Written like a phrase, without `fsync` (`FileManager.createFile` syncs: 0.8 ms of every cold run); a
        // stamp lost to a crash only means opening the library once more.
        try? PhraseStore.createFolder(folder)
        try? PhraseStore.writeAtomically(data, to: stampPath(in: folder, environment: environment), temporaryIn: folder)
    }

    /// This executable's path (`/proc/self/exe`), or its first argument where there is no `/proc`.
    static func executablePath() -> String { ownPath }

    /// Read once: a run asks for it up to four times (the stamp's name and its lines, read and written).
    private static let ownPath = ExecutablePath.current ?? CommandLine.arguments[0]
}

/// What identifies one file's contents on disk: a replaced or rewritten file differs in at least one field.
struct FileIdentity: Equatable, CustomStringConvertible {
    static let fieldCount = 5
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modified: timespec
    var changed: timespec

    /// The identity of the file `path` names (links followed), nil when it cannot be examined.
    init?(_ path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        #if os(Linux)
            modified = status.st_mtim
            changed = status.st_ctim
        #else
            modified = status.st_mtimespec
            changed = status.st_ctimespec
        #endif
    }

    /// `device inode size mtime ctime`, times as `seconds.nanoseconds`.
    var description: String {
        func time(_ value: timespec) -> String { "\(value.tv_sec).\(value.tv_nsec)" }
        return "\(device) \(inode) \(size) \(time(modified)) \(time(changed))"
    }

    static func == (left: FileIdentity, right: FileIdentity) -> Bool { left.description == right.description }
}
