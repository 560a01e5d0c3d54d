/// Streams 16-bit PCM mono audio into a WAV file that appears only when complete.
///
/// Samples are buffered and written with `write(2)` in 64 KiB chunks to a hidden temporary file next
/// to the destination. `finish()` writes the final RIFF and data sizes into the 44-byte canonical
/// header, flushes with `fsync` and renames the temporary onto the destination. `cancel()`, any
/// failure, or releasing the writer before `finish()` removes the temporary, so the destination is
/// never partial or corrupt.
///
/// ```swift
/// let writer = try WAVWriter(path: "out/speech.wav", sampleRate: 22_050)
/// try writer.append(speech.samples)
/// try writer.finish()
/// ```
///
/// Not thread-safe: use one writer from one thread at a time.
public final class WAVWriter {
    /// The destination path.
    public let path: String
    /// Frames per second written into the header.
    public let sampleRate: Int
    /// Frames appended so far.
    public private(set) var frameCount = 0
    /// The fingerprint of the frames appended so far (what a render writes into its companion files).
    public private(set) var fingerprint = AudioFingerprint()

    /// Bytes in the canonical header that precedes the samples.
    public static let headerSize = 44
    /// The most frames a WAV file can hold: its data size is a 32-bit count of bytes.
    public static let maximumFrameCount = (Int(UInt32.max) - headerSize) / 2

    private let file: AtomicFile.Temporary
    private var buffer: [UInt8] = []
    private var failure: OutputFileError?
    private var isDone = false
    private static let chunkSize = 64 * 1024

    /// Starts a WAV file for `path` at `sampleRate` frames per second.
    ///
    /// - Throws: `OutputFileError` when the temporary cannot be created (missing or unwritable folder).
    public convenience init(path: String, sampleRate: Int) throws {
        try self.init(path: path, sampleRate: sampleRate, io: .posix)
    }

    /// Starts a WAV file with injectable system calls (the test seam).
    init(path: String, sampleRate: Int, io: AtomicFile.IO) throws {
        guard sampleRate > 0, sampleRate <= 384_000 else {
            throw OutputFileError(.create, path: path, reason: "unsupported sample rate \(sampleRate) Hz")
        }
        self.path = path
        self.sampleRate = sampleRate
        self.file = try AtomicFile.Temporary(destination: path, io: io)
        buffer.reserveCapacity(Self.chunkSize)
        buffer.append(contentsOf: Self.header(sampleRate: sampleRate, frameCount: 0))
    }

    deinit { cancel() }

    /// Appends mono frames.
    ///
    /// - Throws: `OutputFileError` on a write failure (after which the temporary is already removed and
    ///   every later call throws the same error), or when the file would exceed the WAV size limit.
    public func append(_ samples: some Collection<Int16>) throws {
        try checkUsable()
        guard frameCount + samples.count <= Self.maximumFrameCount else {
            fail(OutputFileError(.write, path: path, reason: "audio too long for a WAV file (4 GiB limit)"))
            try checkUsable()
            return
        }
        // On a little-endian host contiguous samples already are the file's bytes: copy them in one go (the
        // per-sample loop below cost more than the whole mix of a render).
        let copied = samples.withContiguousStorageIfAvailable { storage -> Bool in
            guard UInt16(1).littleEndian == 1 else { return false }
            buffer.append(contentsOf: UnsafeRawBufferPointer(storage))
            return true
        }
        fingerprint.update(samples)
        if copied == true {
            if buffer.count >= Self.chunkSize { try flush() }
        } else {
            for sample in samples {
                let bits = UInt16(bitPattern: sample)
                buffer.append(UInt8(truncatingIfNeeded: bits))
                buffer.append(UInt8(truncatingIfNeeded: bits >> 8))
                if buffer.count >= Self.chunkSize { try flush() }
            }
        }
        frameCount += samples.count
    }

    /// Completes the header, flushes to disk and moves the file into place.
    ///
    /// - Throws: `OutputFileError`; the destination is then untouched and no temporary remains.
    public func finish(syncingFolder: Bool = true) throws {
        try completeHeader()
        do {
            try file.commit(syncingFolder: syncingFolder)
            isDone = true
        } catch let error as OutputFileError {
            fail(error)
            throw error
        }
    }

    /// Completes the header and hands the finished file over, to be moved into place with other files
    /// (``StagedFile/commitTogether(_:)``). The writer is done afterwards.
    ///
    /// - Throws: `OutputFileError`; no temporary remains then.
    public func stage() throws -> StagedFile {
        try completeHeader()
        // The disk starts on the audio now, while the companion files are written; the flush when the set is moved
        // into place then has less to wait for.
        file.startWriteback()
        isDone = true
        return StagedFile(path: path, temporary: file)
    }

    /// Abandons the file: removes the temporary and leaves the destination untouched.
    public func cancel() {
        guard !isDone else { return }
        isDone = true
        file.discard()
    }

    /// The 44-byte canonical header of a 16-bit PCM mono WAV file.
    public static func header(sampleRate: Int, frameCount: Int) -> [UInt8] {
        let dataSize = UInt32(clamping: frameCount * 2)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize)
        func ascii(_ text: String) { bytes.append(contentsOf: text.utf8) }
        func le32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        func le16(_ value: UInt16) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
        ascii("RIFF")
        le32(dataSize &+ 36)
        ascii("WAVE")
        ascii("fmt ")
        le32(16)  // fmt chunk size
        le16(1)  // PCM
        le16(1)  // channels
        le32(UInt32(clamping: sampleRate))
        le32(UInt32(clamping: sampleRate * 2))  // byte rate
        le16(2)  // block align
        le16(16)  // bits per sample
        ascii("data")
        le32(dataSize)
        return bytes
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try buffer.withUnsafeBytes { bytes in try file.write(bytes) }
            buffer.removeAll(keepingCapacity: true)
        } catch let error as OutputFileError {
            fail(error)
            throw error
        }
    }

    private func fail(_ error: OutputFileError) {
        failure = error
        isDone = true
        file.discard()
    }

    /// Flushes what is buffered and writes the header with the final sizes; a failure abandons the file.
    private func completeHeader() throws {
        try checkUsable()
        try flush()
        do {
            try file.seek(to: 0)
            try Self.header(sampleRate: sampleRate, frameCount: frameCount).withUnsafeBytes { bytes in
                try file.write(bytes)
            }
        } catch let error as OutputFileError {
            fail(error)
            throw error
        }
    }

    private func checkUsable() throws {
        if let failure { throw failure }
        if isDone {
            throw OutputFileError(.write, path: path, reason: "the file was already finished or cancelled")
        }
    }
}
