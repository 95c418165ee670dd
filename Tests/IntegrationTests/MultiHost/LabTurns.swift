/// Turns at building a `NetworkLab`, one holder at a time, in the order asked.
actor LabTurns {
    static let shared = LabTurns()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    func take() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func give() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }
}
