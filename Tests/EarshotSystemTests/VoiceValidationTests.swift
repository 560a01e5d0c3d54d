import EarshotCore
@testable import EarshotSystem
import Foundation
import Testing

/// Profiles checked against the installed espeak-ng, and the shipped Voices folder.
@Suite struct VoiceValidationTests {
    @Test func validateRejectsAnUnknownVoice() throws {
        let profile = VoiceProfile(name: "bad", espeakVoice: "xx-nowhere", rate: 185)
        #expect(throws: EspeakError.unknownVoice(voice: "xx-nowhere", profile: "bad")) {
            try SpeechFixtures.synthesizer().validate(profile)
        }
    }

    @Test func validateRejectsAnUnknownVariantThatEspeakWouldIgnore() throws {
        let profile = VoiceProfile(name: "bad", espeakVoice: "en-us", variant: "no-such-variant", rate: 185)
        do {
            try SpeechFixtures.synthesizer().validate(profile)
            Issue.record("an unknown variant was accepted")
        } catch let error as EspeakError {
            guard case .unknownVariant(let variant, _, let known) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(variant == "no-such-variant")
            #expect(known.contains("f3") && known.contains("earshot-narrator"))
            #expect(error.description.contains("no-such-variant"))
        }
    }

    /// The standard voice is the one every worker starts with: nothing is left to try once its names and values
    /// are checked. Any other voice, or a variant of it, is still tried in a worker.
    @Test func onlyTheStandardVoiceIsAcceptedWithoutATrial() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        // Names no other test uses: tests run side by side on the one synthesizer.
        let names = ["trial-plain", "trial-british", "trial-varied"]
        let before = names.map(synthesizer.validationTrials(of:))
        try synthesizer.validate(VoiceProfile(name: names[0], espeakVoice: "en-us", rate: 300, pitch: 20))
        try synthesizer.validate(VoiceProfile(name: names[1], espeakVoice: "en-gb-x-rp", rate: 185))
        try synthesizer.validate(VoiceProfile(name: names[2], espeakVoice: "en-us", variant: "f3", rate: 185))
        #expect(zip(names, before).map { synthesizer.validationTrials(of: $0) - $1 } == [0, 1, 1])
        // Checked all the same: a value out of range is refused without a trial.
        #expect(throws: EspeakError.self) {
            try synthesizer.validate(VoiceProfile(name: "bad", espeakVoice: "en-us", rate: 1000))
        }
    }

    @Test(arguments: [79, 450, 0, 1000])
    func validateRejectsARateOutside80To449(rate: Int) throws {
        let profile = VoiceProfile(name: "bad", espeakVoice: "en-us", rate: rate)
        #expect(throws: EspeakError.valueOutOfRange(name: "rate", value: rate, allowed: 80...449, profile: "bad")) {
            try SpeechFixtures.synthesizer().validate(profile)
        }
    }

    @Test func synthesizeRefusesARateOutsideTheRangeToo() throws {
        #expect(throws: EspeakError.self) {
            try SpeechFixtures.synthesizer().synthesize("Too fast.", voice: SpeechFixtures.voice(rate: 500))
        }
    }

    @Test(arguments: ["default", "expert", "narrator"])
    func shippedProfilesAreValidAndSpeak(name: String) throws {
        let library = try VoiceLibrary(directory: SpeechFixtures.voicesDirectory)
        let profile = try library.profile(named: name)
        let synthesizer = try SpeechFixtures.synthesizer()
        try synthesizer.validate(profile)
        let speech = try synthesizer.synthesize(SpeechFixtures.twentyWords, voice: profile)
        #expect(speech.words.count == 20)
        #expect(speech.rms > 500)
        // Measured words per minute stays near the profile's nominal rate.
        let wordsPerMinute = 20 / speech.duration.seconds * 60
        print(
            "voice \(name): nominal \(profile.rate) wpm, 20 words in \(speech.duration), measured \(Int(wordsPerMinute)) wpm"
        )
        #expect(wordsPerMinute > Double(profile.rate) * 0.6 && wordsPerMinute < Double(profile.rate) * 1.3)
    }

    @Test func theCustomVariantIsLoadedAndAudiblyChangesTheVoice() throws {
        let synthesizer = try SpeechFixtures.synthesizer()
        #expect(synthesizer.customVariants.contains("earshot-narrator"))
        let text = "The narrator reads the story aloud."
        let plain = try synthesizer.synthesize(text, voice: SpeechFixtures.voice(rate: 165, espeak: "en-gb-x-rp"))
        let narrated = try synthesizer.synthesize(
            text, voice: SpeechFixtures.voice(rate: 165, variant: "earshot-narrator", espeak: "en-gb-x-rp"))
        let again = try synthesizer.synthesize(text, voice: SpeechFixtures.voice(rate: 165, espeak: "en-gb-x-rp"))
        // Lower pitch and formants: fewer zero crossings per second than the plain voice, by far more than
        // the plain voice differs from itself.
        let change = abs(narrated.zeroCrossingRate - plain.zeroCrossingRate) / plain.zeroCrossingRate
        let noise = abs(again.zeroCrossingRate - plain.zeroCrossingRate) / plain.zeroCrossingRate
        #expect(change > 0.05 && change > noise * 5, "variant changed ZCR by \(change), repetition by \(noise)")
    }

    @Test func anotherVoicesFolderWithOtherVariantsIsRefusedClearly() throws {
        _ = try SpeechFixtures.synthesizer()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("earshot-other-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("variants"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("language variant\nname other\npitch 200 300\n".utf8).write(
            to: folder.appendingPathComponent("variants/other"))
        do {
            _ = try EspeakSynthesizer.shared(voicesDirectory: folder.path)
            Issue.record("a second set of variants was accepted")
        } catch {
            #expect(error.description.contains("initialized only once"))
        }
        // The same folder again is fine.
        #expect(
            try EspeakSynthesizer.shared(voicesDirectory: SpeechFixtures.voicesDirectory)
                === SpeechFixtures.synthesizer())
    }
}
