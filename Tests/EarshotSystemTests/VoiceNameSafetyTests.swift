import CEarshot
import EarshotCore
import Foundation
import Testing

@testable import EarshotSystem

/// Voice and variant names from untrusted voice files never reach espeak-ng unchecked: names that crash
/// it, overflow its buffers or point it at other files are refused with an error first.
@Suite struct VoiceNameSafetyTests {
    static let longVariant = String(repeating: "v", count: 37)

    @Test(arguments: ["f3", "m3", "klatt"])
    func aVariantNameUsedAsTheVoiceIsAnUnknownVoiceNotACrash(name: String) throws {
        let profile = VoiceProfile(name: "bad", espeakVoice: name, rate: 185)
        let synthesizer = try SpeechFixtures.synthesizer()
        #expect(throws: EspeakError.unknownVoice(voice: name, profile: "bad")) { try synthesizer.validate(profile) }
        #expect(throws: EspeakError.unknownVoice(voice: name, profile: "bad")) {
            try synthesizer.synthesize("Hello.", voice: profile)
        }
        // The same name as a variant is fine.
        try synthesizer.validate(VoiceProfile(name: "good", espeakVoice: "en-us", variant: name, rate: 185))
    }

    @Test(arguments: ["en-us", "en-US", "en-gb-x-rp", "en"])
    func voicesInEspeakNgsOwnListAreAccepted(name: String) throws {
        let profile = VoiceProfile(name: "good", espeakVoice: name, rate: 185)
        let synthesizer = try SpeechFixtures.synthesizer()
        try synthesizer.validate(profile)
        #expect(try synthesizer.synthesize("Hello.", voice: profile).words.count == 1)
    }

    @Test func aVariantNameOf37CharactersIsRefusedBeforeEspeakNgCopiesIt() throws {
        let profile = VoiceProfile(name: "bad", espeakVoice: "en-us", variant: Self.longVariant, rate: 185)
        let expected = EspeakError.invalidName(
            name: Self.longVariant, kind: .variant, profile: "bad", problem: .tooLong(limit: 32))
        let synthesizer = try SpeechFixtures.synthesizer()
        #expect(throws: expected) { try synthesizer.validate(profile) }
        #expect(throws: expected) { try synthesizer.synthesize("Hello.", voice: profile) }
        #expect(expected.description.contains("at most 32 characters"))
    }

    @Test func aVariantNameOf32CharactersPassesTheLengthCheckAndIsLookedUp() throws {
        let name = String(repeating: "v", count: 32)
        let profile = VoiceProfile(name: "bad", espeakVoice: "en-us", variant: name, rate: 185)
        let synthesizer = try SpeechFixtures.synthesizer()
        do {
            try synthesizer.validate(profile)
            Issue.record("an unknown variant was accepted")
        } catch {
            guard case .unknownVariant(let variant, _, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(variant == name)
        }
    }

    @Test(arguments: [
        ("en-us+../../../../elsewhere/x", EspeakName.Kind.voice, Character("+")),
        ("../../../../elsewhere/x", .variant, "."),
        ("en us", .voice, " "),
        ("f3/../../x", .variant, "/"),
    ])
    func aNameWithPathOrSpecCharactersIsRefused(name: String, kind: EspeakName.Kind, character: Character) throws {
        let profile =
            kind == .voice
            ? VoiceProfile(name: "bad", espeakVoice: name, rate: 185)
            : VoiceProfile(name: "bad", espeakVoice: "en-us", variant: name, rate: 185)
        let expected = EspeakError.invalidName(
            name: name, kind: kind, profile: "bad", problem: .disallowedCharacter(character))
        #expect(throws: expected) { try SpeechFixtures.synthesizer().validate(profile) }
        #expect(throws: expected) { try SpeechFixtures.synthesizer().synthesize("Hello.", voice: profile) }
    }

    @Test(arguments: [
        ("en-us", EspeakName.Kind.voice, nil),
        ("earshot-narrator", .variant, nil),
        ("a_b-9", .variant, nil),
        ("", .voice, EspeakName.Problem.empty),
        (String(repeating: "a", count: 24), .voice, nil),
        (String(repeating: "a", count: 25), .voice, .tooLong(limit: 24)),
        (String(repeating: "a", count: 32), .variant, nil),
        (String(repeating: "a", count: 33), .variant, .tooLong(limit: 32)),
        ("é", .voice, .disallowedCharacter("é")),
        ("x\u{0}", .variant, .disallowedCharacter("\u{0}")),
    ])
    func theNameRulesAllowOnlyShortPlainNames(name: String, kind: EspeakName.Kind, problem: EspeakName.Problem?) {
        #expect(EspeakName.problem(with: name, as: kind) == problem)
    }

    @Test(arguments: [
        (Character("."), "'.' is not allowed"), (" ", "U+20 is not allowed"), ("\t", "U+9 is not allowed"),
        ("\u{0}", "U+0 is not allowed"),
    ])
    func aRefusedCharacterIsShownQuotedOrByItsCodeWhenInvisible(character: Character, message: String) {
        #expect(EspeakName.Problem.disallowedCharacter(character).description.hasPrefix(message))
    }

    @Test(arguments: [
        "en-us+" + String(repeating: "v", count: 33),
        String(repeating: "e", count: 25),
        "en-us+f3/../x",
        "../en-us",
        "+f3",
        "en-us+",
        "en-us+f3+f4",
    ])
    func theShimRefusesOverlongNamesAndPathsWhateverTheCallerChecked(name: String) throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        #expect(synthesizer.setVoiceWithoutChecks(name) == Int32(EARSHOT_ESPEAK_VOICE_NOT_FOUND))
    }

    @Test(arguments: ["en-us+" + String(repeating: "v", count: 32), String(repeating: "e", count: 24)])
    func theShimPassesNamesWithinTheBoundsOnToEspeakNg(name: String) throws {
        // espeak-ng itself answers these (an unknown variant is ignored, an unknown voice is not found):
        // what matters is that the shim let them through and nothing overflowed.
        let synthesizer = try SpeechFixtures.synthesizer()
        let status = synthesizer.setVoiceWithoutChecks(name)
        let expected = name.hasPrefix("en-us+") ? Int32(EARSHOT_ESPEAK_OK) : Int32(EARSHOT_ESPEAK_VOICE_NOT_FOUND)
        #expect(status == expected)
        // The synthesizer selects its voice again afterwards.
        #expect(try synthesizer.synthesize("Hello.", voice: SpeechFixtures.voice(rate: 185)).words.count == 1)
    }
}
