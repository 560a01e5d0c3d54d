import Foundation
import Testing

@testable import EarshotReport

/// Headless Chromium, for looking at pages the way a reviewer's browser shows them.
enum HeadlessBrowser {
    /// The Chromium executable: `$CHROMIUM` (nil when that is not executable), else Debian's `chromium`, else
    /// `chromium-browser` on the PATH.
    static let path: String? = {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["CHROMIUM"], !explicit.isEmpty {
            return FileManager.default.isExecutableFile(atPath: explicit) ? explicit : nil
        }
        let folders = (environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init) + ["/usr/bin"]
        for name in ["chromium", "chromium-browser"] {
            for folder in folders where FileManager.default.isExecutableFile(atPath: folder + "/" + name) {
                return folder + "/" + name
            }
        }
        return nil
    }()

    /// Takes a screenshot of `page` at `width`×`height` into `png`, giving up after `timeout` seconds.
    ///
    /// - Returns: Chromium's exit status and what it printed on stderr.
    static func screenshot(
        of page: String, to png: String, width: Int, height: Int, profile: String, timeout: TimeInterval
    ) throws -> (status: Int32, log: String) {
        guard let path else { throw CocoaError(.fileNoSuchFile) }
        let logPath = profile + ".log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=" + profile, "--screenshot=" + png, "--window-size=\(width),\(height)",
            URL(fileURLWithPath: page).absoluteString,
        ]
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try log.close()
        return (process.terminationStatus, (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "")
    }

    /// The width and height a PNG's IHDR chunk declares, or nil when `data` is not a PNG.
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data.prefix(24))
        guard bytes.count == 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A],
            bytes[12..<16] == [0x49, 0x48, 0x44, 0x52]
        else { return nil }
        func word(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }
}

@Suite("Review page in a browser")
struct ReviewPageScreenshotTests {
    /// Renders the announcement-spam comparison page in headless Chromium and checks the picture it took.
    ///
    /// Chromium is a test dependency (`make deps` installs it); without it this test fails and says so, rather
    /// than passing unseen. A blank or single-colour 1400×2000 screenshot compresses to a few kilobytes; the
    /// page's text, bars and lanes make it well over 60 kB.
    /// Generous ceilings (Chromium starts slowly on a busy machine); how long it took is no part of the verdict.
    @Test(.timeLimit(.minutes(4)))
    func theComparisonPageRendersInHeadlessChromium() throws {
        guard HeadlessBrowser.path != nil else {
            let message =
                "chromium is not installed: run `make deps` (the Makefile's APT_PACKAGES has it) "
                + "or `apt-get install chromium`, or set $CHROMIUM"
            Issue.record(Comment(rawValue: message))
            return
        }
        let before = try ReviewFixtures.report("announcement-spam/before-search.earshot")
        let after = try ReviewFixtures.report("announcement-spam/after-search.earshot")
        let folder = try ReviewFixtures.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ReviewFixtures.wav("Before. After.", to: folder + "/compare.wav")
        let page = folder + "/review.html"
        try ReviewPage.write(
            runs: [
                ReviewPage.Run(label: "Before", report: before, wavPath: folder + "/compare.wav"),
                ReviewPage.Run(
                    label: "After", report: after, wavPath: folder + "/compare.wav", audioOffset: .seconds(6)),
            ], to: page)
        let png = folder + "/review.png"
        let result = try HeadlessBrowser.screenshot(
            of: page, to: png, width: 1400, height: 2000, profile: folder + "/chromium-profile", timeout: 180)
        let data = try #require(
            FileManager.default.contents(atPath: png),
            "chromium wrote no screenshot (status \(result.status)): \(result.log.suffix(2000))")
        let size = try #require(HeadlessBrowser.pngSize(data), "the screenshot is not a PNG")
        #expect(size.width == 1400 && size.height == 2000)
        #expect(data.count > 60_000, "a \(data.count)-byte screenshot is blank or nearly so")
    }

    @Test func pngSizesAreReadFromTheHeader() {
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        header += [0, 0, 0x05, 0x78, 0, 0, 0x07, 0xD0]
        #expect(HeadlessBrowser.pngSize(Data(header))?.width == 1400)
        #expect(HeadlessBrowser.pngSize(Data(header))?.height == 2000)
        #expect(HeadlessBrowser.pngSize(Data("GIF89a not a png at all".utf8)) == nil)
    }
}
