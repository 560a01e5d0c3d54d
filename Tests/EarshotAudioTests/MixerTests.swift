import EarshotAudio
import EarshotCore
import Testing

@Suite("Timeline mixer")
struct MixerTests {
    func constant(_ value: Int16, count: Int) -> [Int16] { [Int16](repeating: value, count: count) }

    @Test func overlappingClipsAddSampleForSampleWhereTheyOverlap() throws {
        let mixer = TimelineMixer(rate: 1_000)
        let speech = (0..<500).map { Int16($0) }
        let earcon = Earcon.screenChanged(duration: .milliseconds(400), rate: 1_000)
        mixer.add(MixClip(start: 100, length: 500, role: .speech) { speech })
        mixer.add(MixClip(start: 300, length: 400, role: .effect) { earcon })
        let mixed = try mixer.renderSamples()
        #expect(mixed.count == 700)
        #expect(mixed[0..<100].allSatisfy { $0 == 0 })
        #expect(Array(mixed[100..<300]) == Array(speech[0..<200]))
        #expect((300..<600).allSatisfy { mixed[$0] == speech[$0 - 100] + earcon[$0 - 300] })
        #expect(Array(mixed[600..<700]) == Array(earcon[300..<400]))
    }

    @Test func loudOverlapsSaturateInsteadOfWrappingAround() throws {
        let mixer = TimelineMixer(rate: 1_000)
        mixer.add(MixClip(start: 0, length: 10, role: .speech) { self.constant(30_000, count: 10) })
        mixer.add(
            MixClip(start: 0, length: 10, role: .effect) {
                self.constant(30_000, count: 5) + self.constant(-30_000, count: 5)
            })
        mixer.add(MixClip(start: 5, length: 5, role: .effect) { self.constant(-30_000, count: 5) })
        mixer.add(MixClip(start: 5, length: 5, role: .effect) { self.constant(-30_000, count: 5) })
        let mixed = try mixer.renderSamples()
        #expect(mixed[0..<5].allSatisfy { $0 == Int16.max })
        #expect(mixed[5..<10].allSatisfy { $0 == Int16.min })
    }

    @Test func duckingLowersMediaOnlyWhileSpeechPlays() throws {
        let rate = 10_000
        let mixer = TimelineMixer(rate: rate)
        mixer.add(
            MixClip(start: 0, length: 40_000, role: .media(duckingLevel: 0.3)) { self.constant(10_000, count: 40_000) })
        mixer.add(MixClip(start: 10_000, length: 10_000, role: .speech) { self.constant(0, count: 10_000) })
        let mixed = try mixer.renderSamples()
        let ramp = 200  // 20 ms at 10 kHz
        #expect(mixed[0..<10_000].allSatisfy { $0 == 10_000 }, "full volume before speech")
        #expect(mixed[20_000..<40_000].allSatisfy { $0 == 10_000 }, "full volume again right after speech")
        #expect(mixed[(10_000 + ramp)..<(20_000 - ramp)].allSatisfy { $0 == 3_000 }, "ducked to 30 % inside")
        let down = Array(mixed[10_000..<(10_000 + ramp)])
        #expect(zip(down, down.dropFirst()).allSatisfy { $0 >= $1 } && down.first ?? 0 < 10_000, "ramps down")
        let up = Array(mixed[(20_000 - ramp)..<20_000])
        #expect(zip(up, up.dropFirst()).allSatisfy { $0 <= $1 } && up.last ?? 0 < 10_000, "ramps up inside")
    }

    @Test func mediaWithoutDuckingIsNeverLowered() throws {
        let mixer = TimelineMixer(rate: 1_000)
        mixer.add(MixClip(start: 0, length: 100, role: .media(duckingLevel: nil)) { self.constant(5_000, count: 100) })
        mixer.add(MixClip(start: 20, length: 50, role: .speech) { self.constant(0, count: 50) })
        #expect(try mixer.renderSamples().allSatisfy { $0 == 5_000 })
    }

    @Test(arguments: [1, 7, 1_000, 22_050])
    func blockSizeDoesNotChangeTheMix(blockFrames: Int) throws {
        func build() -> TimelineMixer {
            let mixer = TimelineMixer(rate: 1_000)
            mixer.add(
                MixClip(start: 3, length: 900, role: .media(duckingLevel: 0.3)) {
                    (0..<900).map { Int16($0 * 7 % 3_000) }
                })
            mixer.add(MixClip(start: 250, length: 300, role: .speech) { (0..<300).map { Int16($0 * 11 % 5_000) } })
            mixer.add(MixClip(start: 400, length: 250, role: .effect) { Earcon.tick(rate: 1_000) })
            mixer.extend(to: 1_200)
            return mixer
        }
        var blocked: [Int16] = []
        try build().render(blockFrames: blockFrames) { blocked += $0 }
        #expect(blocked == (try build().renderSamples()))
        #expect(blocked.count == 1_200)
    }

    @Test func clipsAreSynthesizedOnlyWhenTheMixReachesThem() throws {
        final class Calls: @unchecked Sendable { var loaded: [Int] = [] }
        let calls = Calls()
        let mixer = TimelineMixer(rate: 100)
        for index in 0..<5 {
            mixer.add(
                MixClip(start: index * 100, length: 50, role: .speech) {
                    calls.loaded.append(index)
                    return [Int16](repeating: 1, count: 50)
                })
        }
        var loadedPerBlock: [[Int]] = []
        try mixer.render(blockFrames: 100) { _ in loadedPerBlock.append(calls.loaded) }
        #expect(loadedPerBlock.first == [0])
        #expect(loadedPerBlock.last == [0, 1, 2, 3, 4])
    }

    @Test func aClipUsesExactlyItsLengthPaddingOrCutting() throws {
        let mixer = TimelineMixer(rate: 1_000)
        mixer.add(MixClip(start: 0, length: 10, role: .speech) { self.constant(100, count: 4) })
        mixer.add(MixClip(start: 10, length: 5, role: .speech) { self.constant(200, count: 50) })
        let mixed = try mixer.renderSamples()
        #expect(mixed == constant(100, count: 4) + constant(0, count: 6) + constant(200, count: 5))
    }

    @Test func generatedSoundsAreDeterministicAndAudible() {
        let earcon = Earcon.screenChanged(duration: .milliseconds(250), rate: 22_050)
        #expect(earcon.count == 5_512)
        #expect(earcon == Earcon.screenChanged(duration: .milliseconds(250), rate: 22_050))
        #expect((earcon.map { abs(Int($0)) }.max() ?? 0) > 5_000)
        #expect(
            Earcon.chime(named: "success", duration: .milliseconds(400), rate: 22_050)
                != Earcon.chime(named: "error", duration: .milliseconds(400), rate: 22_050))
    }
}
