#if canImport(Glibc)
import Glibc
#endif

/// The `earshot` command's entry point.
public enum Earshot {
    /// The version `earshot --version` prints.
    public static let version = "0.1.0"

    /// Runs the command line and exits with its status.
    public static func main() {
        exit(0)
    }
}
