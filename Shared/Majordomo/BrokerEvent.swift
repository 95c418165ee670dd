import DequeModule
import ZeroMQ

/// Something the broker did that is worth a log line.
enum BrokerEvent: Equatable {
    case workerRegistered(identity: Frame, service: String)
    case workerLeft(identity: Frame, service: String)
    case workerExpired(identity: Frame, service: String)
    case workerUnreachable(identity: Frame, service: String)
    case requestRequeued(service: String)
    case protocolViolation(identity: Frame, reason: String)
    case malformed(sender: Frame, reason: String)
    case refused(client: Frame, refusal: BrokerRefusal)
}
