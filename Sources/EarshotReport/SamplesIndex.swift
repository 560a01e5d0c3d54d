import EarshotCore
import EarshotScript

/// `Samples/README.md`, the index `earshot samples` writes: what each sample is and what to listen for, pairs
/// together (before first), grouped by pattern folder.
public enum SamplesIndex {
    /// The index for the scripts at `paths` (under `root`), with their parsed documents.
    public static func markdown(paths: [String], documents: [ScenarioDocument], root: String) -> String {
        var text = """
            # Listening samples

            Every scenario script under `Scripts/`, rendered by `earshot render` (mono 16-bit WAV at espeak-ng's \
            22050 Hz): speech cut at the exact sample where VoiceOver interrupted it, earcons, app sounds and media \
            narration. Each WAV has its transcript (`.vtt`, WebVTT: cut lines end in — ✂ and say what cut them) and \
            its timeline (`.jsonl`) and a review page (`.html`: the timeline drawn lane by lane, the player, the checks \
            and findings). Regenerate with `make samples` (`earshot samples`); the test suite fails when \
            these files are out of date.

            """
        // Pairs together, before first: before-cart, after-cart, before-search, …
        func key(_ path: String) -> (String, String, Int) {
            let folder = String(path.dropFirst(root.count + 1).split(separator: "/").dropLast().joined(separator: "/"))
            let stem = PathText.stem(path)
            let isAfter = stem.hasPrefix("after")
            let pair = stem.hasPrefix("before") ? String(stem.dropFirst(6)) : isAfter ? String(stem.dropFirst(5)) : stem
            return (folder, pair, isAfter ? 1 : 0)
        }
        let entries = zip(paths, documents).sorted { key($0.0) < key($1.0) }
        var pattern: String?
        for (path, document) in entries {
            let folder = key(path).0
            if folder != pattern {
                pattern = folder
                text += "\n## \(folder.isEmpty ? "scripts" : folder)\n\n"
            }
            let stem = (folder.isEmpty ? "" : folder + "/") + PathText.stem(path)
            text +=
                "- [\(PathText.stem(path)).wav](\(stem).wav) ([review page](\(stem).html), [transcript](\(stem).vtt)) — "
                + "\(document.header.variant.rawValue): \(document.header.title)\n"
            if document.header.variant == .before, let says = document.header.saysDifferent {
                text += "  - listen for: \(says)\n"
            }
        }
        return text
    }
}
