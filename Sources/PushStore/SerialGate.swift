/// A first-in, first-out async lock: one holder at a time, across suspension points.
actor SerialGate {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var head = 0

    func acquire() async {
        guard held else {
            held = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if head < waiters.count {
            let next = waiters[head]
            head += 1
            if head > 64, head * 2 > waiters.count {
                waiters.removeFirst(head)
                head = 0
            }
            next.resume()
        } else {
            held = false
        }
    }
}
