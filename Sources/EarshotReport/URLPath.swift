/// Small path helpers.
public enum URLPath {
    /// `before-search` for `Scripts/announcement-spam/before-search.earshot`.
    public static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name }
        return String(name[..<dot])
    }
}
