/// The version of Earshot, as reports name it (`tool.version` in JSON, the SARIF driver's version) and
/// `earshot --version` prints it.
public enum ToolVersion {
    /// The version.
    public static let current = "0.1.0"
}
