/// Random numbers that are the same on every run (SplitMix64): a test that
/// draws its inputs from a seed fails the same way each time it fails.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension SeededGenerator {
    /// `text` broken one to three times (a byte set to one of `alphabet`,
    /// one of them inserted, or a byte removed): the same breaks for the
    /// same seed, for tests that hold two readers of one text to one answer.
    public mutating func broken(_ text: [UInt8], from alphabet: [UInt8]) -> [UInt8] {
        var text = text
        for _ in 0..<Int.random(in: 1...3, using: &self) {
            let at = Int.random(in: 0..<text.count, using: &self)
            switch Int.random(in: 0..<3, using: &self) {
            case 0: text[at] = alphabet.randomElement(using: &self)!
            case 1: text.insert(alphabet.randomElement(using: &self)!, at: at)
            default: text.remove(at: at)
            }
        }
        return text
    }
}
