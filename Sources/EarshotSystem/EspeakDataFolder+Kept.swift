import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The synthesizer's private data folder, kept between runs.
///
/// Making the folder's few hundred links before the first phrase and removing them at exit cost every process
/// that speaks about 2 ms of wall time and 3.5 ms of CPU (24 renders, interleaved with the same build reusing one
/// folder: 717 → 669 ms, 828 → 743 ms of CPU). So the synthesizer's folder, once made, is renamed to a name of its own and kept: the base
/// folder, `earshot-espeak-data-`, the user's id and a key of everything the folder is made from (the system data
/// folder and its identity, the custom variants' names and contents, the linked voice, this layout's version).
/// A later process with the same key takes it after checking that it is safe and whole:
///
/// - it is a real folder (not a link), owned by this user, with no access for anyone else (another user can neither
///   make one with this owner nor write into it, so nothing planted by someone else is ever read);
/// - its seal names the same key, and its folders hold the numbers of entries the seal gives (a cleaner that
///   removed some of them makes it incomplete), and each custom variant file holds the variant's bytes.
///
/// A folder that fails any check is not used: one of ours is moved aside and removed, and a fresh one is made (and
/// kept in its place); one that is not ours is left alone, and the process makes a fresh folder of its own, removed
/// at exit, as before. Two processes making the folder at once each make their own; the first to rename it into
/// place keeps it, the other uses its own for its run and removes it at exit. Kept folders of other keys unused for
/// a week (a changed variant, an upgraded espeak-ng) are removed when a new one is kept.
extension EspeakDataFolder {
    /// The seal's file name, inside a kept folder.
    static let sealName = ".earshot-kept"

    /// The layout of kept folders; a change to what a folder holds changes it, and so every key.
    static let keptLayout = "1"

    /// How long a kept folder of another key may go unused before it is removed.
    static let keptFolderLifetime: TimeInterval = 7 * 24 * 3600

    /// The name of the kept folder for a folder made from `fingerprint` (system data and variants) linking `voice`.
    static func keptFolderName(fingerprint: String, voice: String?) -> String {
        let hash = FNV1a.hash("\(keptLayout)\n\(fingerprint)\n\(voice ?? "")".utf8, seed: FNV1a.offsetBasis)
        return folderPrefix + "\(geteuid())-" + String(hash, radix: 16)
    }

    /// What a seal says: its key and how many entries each of the folder's folders held when it was made.
    struct Seal: Equatable {
        var key: String
        var top: Int
        var voices: Int
        var variants: Int

        var text: String { "\(key)\ntop \(top)\nvoices \(voices)\nvariants \(variants)\n" }

        init(key: String, top: Int, voices: Int, variants: Int) {
            self.key = key
            self.top = top
            self.voices = voices
            self.variants = variants
        }

        init?(text: String) {
            let lines = text.split(separator: "\n").map(String.init)
            func count(_ index: Int, _ word: String) -> Int? {
                guard index < lines.count, lines[index].hasPrefix(word + " ") else { return nil }
                return Int(lines[index].dropFirst(word.count + 1))
            }
            guard lines.count == 4, let top = count(1, "top"), let voices = count(2, "voices"),
                let variants = count(3, "variants")
            else { return nil }
            self.init(key: lines[0], top: top, voices: voices, variants: variants)
        }

        /// The seal of the folder at `path` as it is now, under `key`.
        static func of(_ path: String, key: String) -> Seal {
            func entries(_ folder: String) -> Int {
                (try? FileManager.default.contentsOfDirectory(atPath: folder).count) ?? -1
            }
            return Seal(
                key: key, top: entries(path), voices: entries(path + "/voices"),
                variants: entries(path + "/voices/!v"))
        }
    }

    /// The kept folder named `name` in the base folder, when it is safe and whole for `variants`; nil when there is
    /// none or it fails a check (see the type's notes; one of ours that fails is removed).
    static func keptFolder(named name: String, variants: [(name: String, contents: Data)]) -> String? {
        let path = baseFolder() + name
        // Absent, or not a private folder of ours: nothing to use (and nothing of anyone else's is touched).
        guard privacyProblem(at: path) == nil else { return nil }
        let whole =
            (try? String(contentsOfFile: path + "/" + sealName, encoding: .utf8)).flatMap(Seal.init(text:)).map {
                sealed in
                let now = Seal.of(path, key: name)
                // Voices linked after the folder was made (another profile's voice) add entries to `voices/`.
                return sealed.key == name && now.top == sealed.top && now.variants == sealed.variants
                    && now.voices >= sealed.voices
            } ?? false
        let sameVariants = variants.allSatisfy { variant in
            FileManager.default.contents(atPath: path + "/voices/!v/" + variant.name) == variant.contents
        }
        guard whole && sameVariants else {
            discard(path)
            return nil
        }
        // Its use is its age: a kept folder unused for a week goes (``removeUnusedKeptFolders(keeping:)``).
        utimensat(AT_FDCWD, path + "/" + sealName, nil, AT_SYMLINK_NOFOLLOW)
        return path
    }

    /// Seals the freshly made private folder `path` and renames it to the kept folder `name`. Returns the kept
    /// folder's path, or `path` itself when it could not be kept (it is then removed at exit, as before).
    static func keep(_ path: String, as name: String) -> String {
        let kept = baseFolder() + name
        let seal = Seal.of(path, key: name)
        // The seal counts itself among the folder's entries.
        let sealed = Seal(key: name, top: seal.top + 1, voices: seal.voices, variants: seal.variants)
        guard (try? writeNewFile(path + "/" + sealName, Data(sealed.text.utf8))) != nil,
            rename(path, kept) == 0
        else { return path }
        forget(path)
        removeUnusedKeptFolders(keeping: name)
        return kept
    }

    /// Moves the kept folder `path` (checked to be ours) aside under a fresh name and removes it.
    static func discard(_ path: String) {
        guard privacyProblem(at: path) == nil else { return }
        let aside = path + ".removed-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard rename(path, aside) == 0 else { return }
        removeTree(aside)
    }

    /// Removes this user's kept folders, other than `name`, whose seal has not been touched for
    /// ``keptFolderLifetime``, and any left half-removed.
    static func removeUnusedKeptFolders(keeping name: String) {
        let base = baseFolder()
        let mine = folderPrefix + "\(geteuid())-"
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        let now = Date().timeIntervalSince1970
        for entry in entries where entry.hasPrefix(mine) && entry != name {
            let path = base + entry
            var status = stat()
            let sealAge = lstat(path + "/" + sealName, &status) == 0 ? now - Double(status.st_mtim.tv_sec) : .infinity
            if entry.contains(".removed-") || sealAge > keptFolderLifetime {
                if privacyProblem(at: path) == nil { removeTree(path) }
            }
        }
    }
}
