import CEarshot
import Foundation

/// The espeak-ng library, opened when a process first needs it rather than when it starts.
///
/// Linking libespeak-ng made every `earshot` process load it and the ~30 libraries it depends on (PulseAudio,
/// X11, systemd, codecs) before `main`: 3.2 ms of dynamic linking, paid by `--version`, `help`, `verify` and a
/// check answered from the phrase cache alike. Commands that speak start opening it on a background thread as
/// soon as their arguments are read (``openInBackground()``), so it loads while their scripts are parsed; every
/// espeak-ng call waits for that one opening. `EARSHOT_ESPEAK_LIBRARY` names another library file to open.
///
/// libespeak-ng needs libpcaudio to play audio itself, which Earshot never lets it do; libpcaudio brings in
/// PulseAudio and the libraries above. The `earshot` executable has a stand-in for it built beside itself
/// (tools/playback-stand-in), which plays nothing and needs nothing: ``useStandInForPlayback(at:)`` before the
/// library opens, and the loader takes it for libpcaudio (``standInForPlayback(besideExecutable:)`` finds it).
public enum EspeakLibrary {
    /// The stand-in's file name.
    public static let standInFileName = "libearshot-pcaudio.so"

    /// The stand-in for libpcaudio installed with the executable at `executablePath`: beside it (a build
    /// folder), else in `../lib/earshot/` (an install under a prefix); nil when there is none.
    public static func standInForPlayback(besideExecutable executablePath: String?) -> String? {
        guard let executablePath, let folder = ExecutablePath.resolvedFolder(of: executablePath) else { return nil }
        let prefix = folder.lastIndex(of: "/").map { String(folder[..<$0]) } ?? ""
        let candidates = [folder + "/" + standInFileName, prefix + "/lib/earshot/" + standInFileName]
        return candidates.first { access($0, R_OK) == 0 }
    }

    /// Has the library opened with `path` standing in for libpcaudio. Call before it opens (a later call, or a
    /// file that cannot stand in, leaves the real libpcaudio).
    public static func useStandInForPlayback(at path: String) {
        earshot_espeak_set_playback_stand_in(path)
    }

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
