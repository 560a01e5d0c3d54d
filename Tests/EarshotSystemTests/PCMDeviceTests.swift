import EarshotSystem
import Foundation
import Testing

/// ALSA through the `null` PCM (no sound card here) and a device that does not exist.
@Suite struct PCMDeviceTests {
    private func tone(_ frames: Int) -> [Int16] {
        (0..<frames).map { Int16(8000 * sin(Double($0) * 2 * .pi * 440 / 22050)) }
    }

    @Test func writingToTheNullDeviceIsAccepted() throws {
        let device = try PCMDevice(device: "null", sampleRate: 22050, periodFrames: 512, bufferFrames: 2048)
        #expect(device.sampleRate == 22050)
        #expect(device.periodFrames > 0 && device.bufferFrames >= device.periodFrames)
        let samples = tone(4096)
        var written = 0
        var attempts = 0
        while written < samples.count && attempts < 1000 {
            let accepted = try device.write(samples[written...])
            written += accepted
            if accepted == 0 { try device.wait(timeoutMilliseconds: 100) }
            attempts += 1
        }
        #expect(written == samples.count)
        #expect(try device.delay() >= 0)
    }

    @Test func playWritesEverythingAndDrains() throws {
        let device = try PCMDevice(device: "null", sampleRate: 22050)
        try device.play(tone(22050))
        #expect(device.underrunCount >= 0)
        // After a drain the stream can be prepared and used again.
        try device.prepare()
        #expect(try device.write(tone(256)[...]) == 256)
    }

    @Test func aDropAndPrepareCycleLetsWritingContinue() throws {
        let device = try PCMDevice(device: "null", sampleRate: 22050, periodFrames: 256, bufferFrames: 1024)
        #expect(try device.write(tone(512)[...]) > 0)
        try device.drop()
        #expect(try device.delay() == 0)
        try device.prepare()
        #expect(try device.write(tone(512)[...]) > 0)
        // A write right after a drop prepares the stream by itself.
        try device.drop()
        #expect(try device.write(tone(128)[...]) == 128)
    }

    @Test func wakeEndsAWaitFromAnotherThread() throws {
        let device = try PCMDevice(device: "null", sampleRate: 22050)
        device.wake()
        #expect(try device.wait(timeoutMilliseconds: 5000) == .woken)
        let start = Date()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) { device.wake() }
        // The null PCM is always writable, so keep waiting until the other thread's wake-up arrives (the minute is
        // only a ceiling against a lost wake-up; a busy machine may deliver it late).
        var outcome = PCMDevice.WaitOutcome.writable
        while outcome != .woken && Date().timeIntervalSince(start) < 60 {
            outcome = try device.wait(timeoutMilliseconds: 100)
        }
        #expect(outcome == .woken)
    }

    @Test func openingAMissingDeviceThrowsALSAsMessage() {
        do {
            _ = try PCMDevice(device: "earshot-no-such-device", sampleRate: 22050)
            Issue.record("a missing device opened")
        } catch {
            #expect(error.device == "earshot-no-such-device")
            #expect(error.operation == "snd_pcm_open")
            #expect(error.code < 0)
            #expect(!error.message.isEmpty)
            #expect(error.description.contains("earshot-no-such-device"))
            #expect(error.description.contains(error.message))
        }
    }

    @Test func aClosedDeviceRefusesWork() throws {
        let device = try PCMDevice(device: "null", sampleRate: 22050)
        device.close()
        #expect(throws: ALSAError.self) { try device.write(tone(16)[...]) }
    }
}
