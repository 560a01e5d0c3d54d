/// Path arithmetic on the text of a path, without Foundation's `URL`.
///
/// A file `URL` parses the path and asks the file system whether it names a folder; its first use in a process
/// cost about 0.3 ms, and a render made 21 of them for names, extensions and folders the text already gives.
public enum PathText {
    /// The last component: `b.wav` for `/a/b.wav` and for `a/b.wav/`; `/` for `/`; the path itself when it has
    /// no slash.
    public static func lastComponent(_ path: String) -> String {
        // Indices into the path, not reversed copies: this runs at every start, where building a string from a
        // reversed sequence of characters cost about 0.5 ms of the 20 ms a render of a short script takes.
        var end = path.endIndex
        while end > path.startIndex, path[path.index(before: end)] == "/" { end = path.index(before: end) }
        guard end > path.startIndex else { return path.isEmpty ? "" : "/" }
        let start = path[..<end].lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex
        return String(path[start..<end])
    }

    /// The last component without its extension: `before-search` for `Scripts/x/before-search.earshot`. The
    /// extension is what follows the last dot; a leading or a trailing dot starts none (`.hidden`, `name.`).
    public static func stem(_ path: String) -> String {
        let name = lastComponent(path)
        guard let dot = extensionDot(in: name) else { return name }
        return String(name[..<dot])
    }

    /// The dot that starts `name`'s extension, if it has one.
    private static func extensionDot(in name: String) -> String.Index? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex, name.index(after: dot) != name.endIndex
        else { return nil }
        return dot
    }

    /// `path` with the extension of its last component replaced by `newExtension`, or `newExtension` appended
    /// when there is none: `out.vtt` for `out.wav`, `dir.d/out.vtt` for `dir.d/out`.
    public static func replacingExtension(of path: String, with newExtension: String) -> String {
        let name = lastComponent(path)
        guard !path.hasSuffix("/"), let dot = extensionDot(in: name) else { return path + "." + newExtension }
        return String(path.dropLast(name.distance(from: dot, to: name.endIndex))) + "." + newExtension
    }

    /// The folder `path` is in, as written: `/a` for `/a/b`, `/` for `/a`, `a` for `a/b/`, `.` for `b`.
    public static func folder(of path: String) -> String {
        var text = Substring(path)
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        guard let slash = text.lastIndex(of: "/") else { return "." }
        var folder = text[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }

    /// `path` made absolute against `currentDirectory`, with `.` components dropped, `..` taking off the component
    /// before it (as written: links are not followed) and repeated slashes merged.
    public static func standardized(_ path: String, in currentDirectory: String) -> String {
        var components: [Substring] = []
        let absolute = path.hasPrefix("/") ? path : currentDirectory + "/" + path
        for component in absolute.split(separator: "/") where component != "." {
            if component == ".." {
                _ = components.popLast()
            } else {
                components.append(component)
            }
        }
        return "/" + components.joined(separator: "/")
    }
}
