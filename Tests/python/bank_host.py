# SPDX-License-Identifier: Apache-2.0
"""The bank's host program the CLI tests give `tender ask` and `tender intent --handler`.

`HANDLER` is the program's text: it lists two expenses ("values" calls), answers
what is left of one (the expense intent) and appends every other handled
request, as JSON, to a log file beside itself (`PROGRAM.log`), so a test can
count how many times money was moved."""
import sys

HANDLER = f"""#!{sys.executable}
import json, sys
call = json.loads(sys.stdin.read())
expenses = {{"vacation": "120.00", "groceries": "85.50"}}
if call["call"] == "values":
    print(json.dumps({{"values": sorted(expenses)}}))
elif call["request"]["intent"] == "expense":
    left = expenses[call["request"]["parameters"]["expense"]]
    print(json.dumps({{"code": "success", "values": {{"amountLeft": {{"amount": left, "currency": "USD"}}}}}}))
else:
    with open(sys.argv[0] + ".log", "a") as log:
        log.write(json.dumps(call["request"]) + "\\n")
    print(json.dumps({{"code": "success"}}))
"""


def write_handler(directory):
    """Writes the program as `directory`/bank-host (mode 0700) and answers its path."""
    path = directory / "bank-host"
    path.write_text(HANDLER)
    path.chmod(0o700)
    return str(path)
