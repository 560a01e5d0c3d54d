import Foundation

/// The espeak-ng data folder Earshot initializes with: the system data plus Earshot's custom variants.
///
/// espeak-ng reads voices and variants only from its data folder (its by-file voice lookup lower-cases
/// and truncates paths), so to ship `Voices/variants/*` we build a private folder of symlinks to the
/// system data and add our variant files under `voices/!v/`, in a fresh `mkdtemp` folder (mode 0700, checked to
/// be ours and private before use). The synthesizer's folder is then kept for later processes
/// (`EspeakDataFolder+Kept.swift`, which says what makes a kept folder safe to use); any other is removed at exit.
/// The synthesizer's folder also links the standard voice's file under its name (`voices/en-us`), and another
/// voice's when a profile first names it, so that selecting them does not make espeak-ng list every voice first
/// (``linkVoiceFile(_:in:system:)``).
struct EspeakDataFolder: Equatable {
    /// The folder to give espeak-ng.
    var path: String
    /// Custom variants it holds, by name.
    var customVariants: [String]
    /// A stable fingerprint of the custom variants (names and contents) and of the system data folder they join
    /// (``fingerprint(of:systemPath:)``).
    var variantsFingerprint: String
    /// The system data folder a private folder links to (the same as `path` without custom variants).
    var systemPath: String

    /// Places espeak-ng's data is installed, most likely first.
    static let systemCandidates = [
        "/usr/lib/x86_64-linux-gnu/espeak-ng-data", "/usr/lib/aarch64-linux-gnu/espeak-ng-data",
        "/usr/lib/espeak-ng-data", "/usr/share/espeak-ng-data", "/usr/local/share/espeak-ng-data",
        "/usr/local/lib/espeak-ng-data", "/opt/homebrew/share/espeak-ng-data",
    ]

    /// The system espeak-ng data folder: `ESPEAK_DATA_PATH` when set, else the first known location.
    static func systemDataPath() -> String? {
        var candidates: [String] = []
        if let fromEnvironment = ProcessEnvironment.current["ESPEAK_DATA_PATH"] {
            candidates += [fromEnvironment + "/espeak-ng-data", fromEnvironment]
        }
        candidates += systemCandidates
        return candidates.first { FileManager.default.fileExists(atPath: $0 + "/phontab") }
    }

    /// Variant files in `voicesDirectory/variants`: regular files whose names are plain words.
    static func customVariantFiles(in voicesDirectory: String?) -> [(name: String, contents: Data)] {
        guard let voicesDirectory else { return [] }
        let folder = voicesDirectory + "/variants"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted().compactMap { name in
            guard isVariantName(name), let contents = FileManager.default.contents(atPath: folder + "/" + name)
            else { return nil }
            return (name, contents)
        }
    }

    /// A variant name espeak-ng can take after `+` (``EspeakName``: letters, digits, `-` and `_`, bounded).
    static func isVariantName(_ name: String) -> Bool {
        EspeakName.problem(with: name, as: .variant) == nil
    }

    /// The fingerprint of a set of variant files and of the system data folder at `systemPath`: its path and
    /// what identifies the folder itself (device, inode, modification and change times). A package upgrade
    /// writes every file of espeak-ng's data anew and renames it into place, which changes the folder's times, so
    /// phrases cached from the old data are not taken for the new (the library's version alone can stay the
    /// same across such an upgrade).
    static func fingerprint(of variants: [(name: String, contents: Data)], systemPath: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<S: Sequence>(_ bytes: S) where S.Element == UInt8 {
            for byte in bytes {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
            hash ^= 0xff
            hash = hash &* 0x100_0000_01b3
        }
        mix(Array(systemPath.utf8))
        mix(Array((FileIdentity(systemPath).map(String.init(describing:)) ?? "absent").utf8))
        for variant in variants {
            mix(Array(variant.name.utf8))
            mix(variant.contents)
        }
        return String(hash, radix: 16)
    }

    /// Builds this process's data folder for the custom variants in `voicesDirectory`.
    ///
    /// Without custom variants this is the system data folder itself. With `linkingVoice` (a voice name, such as
    /// `en-us`), a private folder also gets that voice's file under the name, in `voices/` (``linkVoiceFile``). With
    /// `keeping`, the private folder is kept for later processes, and one kept earlier is used (see
    /// `EspeakDataFolder+Kept.swift`); else it is this process's own, removed at exit.
    static func prepare(
        voicesDirectory: String?, linkingVoice voice: String? = nil, keeping: Bool = false
    ) throws(EspeakError) -> EspeakDataFolder {
        guard let system = systemDataPath() else {
            throw .dataFolderUnavailable(
                path: systemCandidates[0],
                reason: "espeak-ng data not found; install it with `apt-get install espeak-ng libespeak-ng-dev`")
        }
        let variants = customVariantFiles(in: voicesDirectory)
        let fingerprint = fingerprint(of: variants, systemPath: system)
        if variants.isEmpty {
            return EspeakDataFolder(
                path: system, customVariants: [], variantsFingerprint: fingerprint, systemPath: system)
        }
        let keptName = keptFolderName(fingerprint: fingerprint, voice: voice)
        // An interrupt's clean-up (``removePrivateDataFolders()``) waits for a folder being made: removed while this
        // thread still links into it, it was left behind, half made.
        return try whileMaking { () throws(EspeakError) -> EspeakDataFolder in
            try prepare(
                system: system, variants: variants, fingerprint: fingerprint, voice: voice,
                keeping: keeping ? keptName : nil)
        }
    }

    /// The private folder for `variants`: the kept one named `keptName` when it is whole, else a fresh one (kept
    /// under that name when there is one).
    private static func prepare(
        system: String, variants: [(name: String, contents: Data)], fingerprint: String, voice: String?,
        keeping keptName: String?
    ) throws(EspeakError) -> EspeakDataFolder {
        if let keptName, let kept = keptFolder(named: keptName, variants: variants) {
            return EspeakDataFolder(
                path: kept, customVariants: variants.map(\.name), variantsFingerprint: fingerprint, systemPath: system)
        }
        var path = try makePrivateFolder()
        do {
            try fill(path, system: system, variants: variants)
            // Only a shortcut: without the link, selecting the voice lists every voice, as it always did.
            if let voice { try? linkVoiceFile(voice, in: path, system: system) }
        } catch {
            removeFolder(path)
            throw .dataFolderUnavailable(path: path, reason: "\(error)")
        }
        if let keptName { path = keep(path, as: keptName) }
        return EspeakDataFolder(
            path: path, customVariants: variants.map(\.name), variantsFingerprint: fingerprint, systemPath: system)
    }

    /// Links the system data into the private folder `path` and writes the custom variants.
    private static func fill(_ path: String, system: String, variants: [(name: String, contents: Data)]) throws {
        try makeFolder(path + "/voices")
        try makeFolder(path + "/voices/!v")
        try linkEntries(of: system, into: path, excluding: ["voices"])
        try linkEntries(of: system + "/voices", into: path + "/voices", excluding: ["!v"])
        try linkEntries(
            of: system + "/voices/!v", into: path + "/voices/!v", excluding: Set(variants.map(\.name)))
        for variant in variants {
            try writeNewFile(path + "/voices/!v/" + variant.name, variant.contents)
        }
    }

    /// Links the file of the voice named `voice` (in any letter case) into the private folder's `voices/` under
    /// that name, so that espeak-ng selects it by name straight from the file.
    ///
    /// espeak-ng looks a voice name up first as a file in `voices/` and `lang/`. `en-us` is neither (its file is
    /// `lang/gmw/en-US`), so selecting it by name lists every voice first: about 360 files read, 3.7 ms of each
    /// process's start. espeak-ng then picks the listed voice whose file is named `voice` in any case; the file
    /// linked here is that same one, found without the list (in `lang/` and its folders), so the same voice is
    /// loaded, only sooner. When no such file exists, or more than one (espeak-ng's choice would then depend on
    /// its list), nothing is linked and selection lists the voices as before.
    static func linkVoiceFile(_ voice: String, in path: String, system: String) throws {
        let manager = FileManager.default
        let wanted = voice.lowercased()
        guard EspeakName.problem(with: voice, as: .voice) == nil, !manager.fileExists(atPath: path + "/voices/" + voice)
        else { return }
        var found: [String] = []
        let languages = system + "/lang"
        for entry in (try? manager.contentsOfDirectory(atPath: languages)) ?? [] {
            let entryPath = languages + "/" + entry
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: entryPath, isDirectory: &isFolder) else { continue }
            if !isFolder.boolValue {
                if entry.lowercased() == wanted { found.append(entryPath) }
                continue
            }
            for name in (try? manager.contentsOfDirectory(atPath: entryPath)) ?? [] where name.lowercased() == wanted {
                found.append(entryPath + "/" + name)
            }
        }
        guard found.count == 1 else { return }
        guard symlink(found[0], path + "/voices/" + voice) == 0 else {
            throw TreeError(operation: "symlink", path: path + "/voices/" + voice, code: errno)
        }
    }

    /// Names of every variant available in this data folder (system and custom), sorted.
    func knownVariants() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path + "/voices/!v")) ?? []).sorted()
    }

    /// True when this is a private folder whose `voices/` holds the file of the voice named `voice`
    /// (``linkVoiceFile(_:in:system:)``), so espeak-ng selects that voice without listing every voice.
    func hasLinkedVoice(_ voice: String) -> Bool {
        !customVariants.isEmpty && FileManager.default.fileExists(atPath: path + "/voices/" + voice)
    }

    /// Links the file of the voice named `voice` into this private folder when it can (``linkVoiceFile``), and
    /// answers whether the folder now holds it. A system folder (no custom variants) is never written to.
    func linkVoice(_ voice: String) -> Bool {
        guard !customVariants.isEmpty else { return false }
        return Self.whileMaking {
            if !hasLinkedVoice(voice) { try? Self.linkVoiceFile(voice, in: path, system: systemPath) }
            return hasLinkedVoice(voice)
        }
    }

    /// True when this data folder has a variant file with this name.
    func hasVariant(_ name: String) -> Bool {
        EspeakDataFolder.isVariantName(name) && FileManager.default.fileExists(atPath: path + "/voices/!v/" + name)
    }
}
