import CEarshot

/// The espeak-ng library, opened when a process first needs it rather than when it starts.
///
/// Linking libespeak-ng made every `earshot` process load it and the ~30 libraries it depends on (PulseAudio,
/// X11, systemd, codecs) before `main`: 3.2 ms of dynamic linking, paid by `--version`, `help`, `verify` and a
/// check answered from the phrase cache alike. Commands that speak start opening it on a background thread as
/// soon as their arguments are read (``openInBackground()``), so it loads while their scripts are parsed; every
/// espeak-ng call waits for that one opening. `EARSHOT_ESPEAK_LIBRARY` names another library file to open.
public enum EspeakLibrary {
    /// Opens the library (once per process; later calls return at once).
    ///
    /// - Throws: ``EspeakError/libraryUnavailable(library:reason:)`` naming the library and the loader's reason.
    public static func open() throws(EspeakError) {
        var problem = [CChar](repeating: 0, count: 1024)
        guard earshot_espeak_open(&problem, problem.count) != Int32(EARSHOT_ESPEAK_OK) else { return }
        throw .libraryUnavailable(library: name(), reason: text(problem))
    }

    /// Starts opening the library on a background thread and returns at once.
    public static func openInBackground() {
        earshot_espeak_open_in_background()
    }

    /// The path of the opened library, or the name that could not be opened.
    public static func name() -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        earshot_espeak_library_name(&buffer, buffer.count)
        return text(buffer)
    }

    /// Why the library file `name` (a path, or a name the dynamic loader looks up) cannot serve as espeak-ng,
    /// or nil when it can: it opens and has every function Earshot calls. Opens it apart from the process's
    /// own library and closes it again.
    public static func problem(withLibrary name: String) -> String? {
        var problem = [CChar](repeating: 0, count: 1024)
        guard earshot_espeak_try_library(name, &problem, problem.count) != Int32(EARSHOT_ESPEAK_OK) else {
            return nil
        }
        return text(problem)
    }

    private static func text(_ buffer: [CChar]) -> String {
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
