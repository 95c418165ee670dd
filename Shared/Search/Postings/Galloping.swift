extension RandomAccessCollection where Element == UInt32, Index == Int {
    /// The first position from `start` whose value is not below `target`
    /// (the values ascend), galloping: steps of 1, 2, 4, … past it, then
    /// halves back. A walk that mostly moves a few values, now and then
    /// far, pays for the distance it moves, not for the whole.
    @inline(__always)
    func firstNotBelow(_ target: UInt32, from start: Int) -> Int {
        // Every value before `low` is below the target; the one at `high`, if any, is not.
        var (low, high, step) = (start, start, 1)
        while high < endIndex, self[high] < target {
            low = high + 1
            high += step
            step *= 2
        }
        high = Swift.min(high, endIndex)
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
