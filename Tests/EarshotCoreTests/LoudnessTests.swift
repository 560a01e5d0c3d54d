import Testing

@testable import EarshotCore

/// The loudness word alignment judges by: a window's RMS, summed in integers for speed, must be the value the
/// plain definition in Doubles gives, at full scale too (where word starts would otherwise move).
@Suite struct LoudnessTests {
    static func definition(_ samples: [Int16], _ start: Int, _ length: Int) -> Double {
        let window = samples[start..<min(samples.count, start + length)]
        guard !window.isEmpty else { return 0 }
        return (window.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(window.count)).squareRoot()
    }

    @Test func aWindowsRMSIsTheDefinitionsValue() {
        var generator = SystemRandomNumberGenerator()
        let noise = (0..<5000).map { _ in Int16.random(in: .min ... .max, using: &generator) }
        let fullScale = [Int16](repeating: .min, count: 4096) + [Int16](repeating: .max, count: 4096)
        for samples in [noise, fullScale] {
            for (start, length) in [(0, 110), (37, 110), (4990, 110), (0, samples.count), (100, 1), (0, 0)] {
                #expect(Loudness.rms(samples, start, length) == Self.definition(samples, start, length))
            }
        }
        #expect(Loudness.rms([3, 4], 0, 2) == (12.5 as Double).squareRoot())
    }
}
