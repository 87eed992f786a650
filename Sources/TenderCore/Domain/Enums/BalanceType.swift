// SPDX-License-Identifier: Apache-2.0
/// SiriKit's INBalanceType: what an account balance counts.
public enum BalanceType: String, NamedValue {
    case money, points, miles
    public static let kindName = "balance type"
}
