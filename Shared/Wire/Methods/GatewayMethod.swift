/// What the gateway answers itself (8/MMI and this product's `mmi.*`
/// documents): each is its own service, named as the method is.
public enum GatewayMethod {
    public static let status = RPCMethod<NoParams, GatewayStatus>("mmi.status", service: "mmi.status")
}
