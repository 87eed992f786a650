// SPDX-License-Identifier: Apache-2.0
import CTender
import TenderCore

/// Maps Tender's Swift errors to the C result codes of tender.h. The mapping
/// and the names are generated from scripts/errors.py's table (ResultCode+Table.swift).
enum ResultCode {
    static let ok = value(TENDER_OK)

    /// The code the header names for `constant`.
    static func value(_ constant: tender_result_code) -> tender_result { tender_result(bitPattern: constant.rawValue) }
}
