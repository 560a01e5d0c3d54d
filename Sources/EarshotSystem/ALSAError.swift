/// An ALSA call failed: which device, which operation, ALSA's code and its text.
public struct ALSAError: Error, Equatable, CustomStringConvertible {
    /// The PCM device name, for example `default` or `null`.
    public var device: String
    /// The ALSA operation that failed, for example `snd_pcm_open`.
    public var operation: String
    /// ALSA's (negative errno) error code.
    public var code: Int
    /// `snd_strerror(code)`.
    public var message: String
    /// ALSA's own last library message, captured instead of printed to stderr (may be empty).
    public var detail: String

    /// Creates an error.
    public init(device: String, operation: String, code: Int, message: String, detail: String = "") {
        self.device = device
        self.operation = operation
        self.code = code
        self.message = message
        self.detail = detail
    }

    public var description: String {
        var text = "ALSA device '\(device)': \(operation) failed: \(message) (\(code))"
        if !detail.isEmpty { text += " — ALSA says: \(detail)" }
        if operation == "snd_pcm_open" {
            text +=
                ". Check the device name (`aplay -L` lists them); "
                + "without a sound card use `null`, or render to a WAV file instead."
        }
        return text
    }
}
