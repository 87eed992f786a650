# SPDX-License-Identifier: Apache-2.0
"""One client of tenderd for test_broker.py, run as a throwaway user.

    python3 broker_client.py SOCKET COMMAND [ARGS...]

Commands (each prints one JSON line):
  setup                        import the test directory (John Baily, Checking $1000)
  pay PASSWORD KEY [AUTH]      send $5 to John Baily under idempotency key KEY, answering PAM's
                               prompts with PASSWORD ("-" for none: cancel); AUTH is the client's
                               own authentication policy as JSON
  payments                     the idempotency keys of every payment
  reads COUNT                  on one engine, read the payments COUNT times in a row (a connection each)
  ledger                       how many entries the ledger holds
  checkpoint                   a checkpoint of the ledger
  verify CHECKPOINT_FILE       verify the ledger against a checkpoint
  engine CONFIG                open an engine with this extra configuration (JSON), print ok or the error
  swarm N PASSWORD             N connections at once from threads: the first 4 pay, the others read
  burst PASSWORD COUNT PREFIX  pay COUNT times in a row, printing each acknowledged key (and its JWS) as it comes
  repoint VALUE                import the directory again with John Baily's handle pointing at VALUE
  setresuid UID                (run as root) setresuid(UID, 0, 0), then open a brokered engine and one in process
"""

import copy
import os

import json
import sys
import threading

import libtender as tender

DIRECTORY = {
    "contacts": [{"id": "john-baily", "displayName": "John Baily", "handles": [
        {"id": "john-baily-mobile", "label": "mobile", "type": "phone", "value": "+1 408 555 0102"}]}],
    "accounts": [{"id": "checking", "nickname": "Checking", "type": "checking",
                  "balance": {"amount": "1000.00", "currency": "USD"}, "default": True}],
}


def engine(socket, **config):
    # The home is ignored by a brokered engine: the daemon keeps the store.
    return tender.Engine("/nonexistent-home", broker=socket, **config)


def pay(socket, password, key, authentication=None):
    config = {"authentication": json.loads(authentication)} if authentication else {}
    with engine(socket, **config) as e, e.session({
            "intent": "send_payment", "payee": {"name": "John Baily"},
            "currencyAmount": {"amount": "5", "currency": "USD"}, "idempotencyKey": key}) as s:
        resolution = s.resolve()
        if not resolution["complete"]:
            return {"code": "incomplete", "resolution": resolution}
        code, _ = s.confirm()
        if code != tender.ResponseCode.READY:
            return {"code": code.name}
        s.agree(True)
        s.set_conversation(lambda kind, message: None if password == "-" else password)
        code, record = s.handle()
        return {"code": code.name, "key": record["idempotencyKey"] if record else None,
                "jws": record.jws if record else None, "denial": s.last_denial}


def swarm(socket, count, password):
    """Opens `count` connections at once (a barrier lines them up); returns what each got."""
    barrier = threading.Barrier(count)
    paid, read, errors = [], [], []

    def one(index):
        try:
            barrier.wait(timeout=60)
            if index < 4:
                outcome = pay(socket, password, f"swarm-{index}")
                (paid if outcome["code"] == "SUCCESS" else errors).append(outcome.get("key") or outcome)
            else:
                with engine(socket) as e:
                    read.append(len(e.payments()) + len(e.directory()["contacts"]))
        except Exception as error:  # noqa: BLE001  (every failure is reported to the test)
            errors.append(f"{type(error).__name__}: {error}")

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"paid": sorted(paid), "read": len(read), "errors": errors}


def main(argv):
    socket, command, args = argv[1], argv[2], argv[3:]
    try:
        if command == "setup":
            with engine(socket) as e:
                e.import_directory(DIRECTORY)
            result = {"ok": True}
        elif command == "pay":
            result = pay(socket, *args)
        elif command == "payments":
            with engine(socket) as e:
                result = {"keys": [p["idempotencyKey"] for p in e.payments()]}
        elif command == "reads":
            with engine(socket) as e:
                result = {"reads": sum(1 for _ in range(int(args[0])) if e.payments() == [])}
        elif command == "ledger":
            with engine(socket) as e:
                result = {"entries": len(e.ledger())}
        elif command == "checkpoint":
            with engine(socket) as e:
                result = {"checkpoint": e.checkpoint()}
        elif command == "verify":
            with engine(socket) as e, open(args[0]) as f:
                result = {"report": e.verify(checkpoint=f.read())}
        elif command == "swarm":
            result = swarm(socket, int(args[0]), args[1])
        elif command == "burst":
            for index in range(int(args[1])):
                outcome = pay(socket, args[0], f"{args[2]}-{index}")
                print(json.dumps({"acknowledged": outcome["key"], "jws": outcome["jws"]} if outcome["code"] == "SUCCESS" else outcome), flush=True)
            result = {"done": True}
        elif command == "repoint":
            directory = copy.deepcopy(DIRECTORY)
            directory["contacts"][0]["handles"][0]["value"] = args[0]
            with engine(socket) as e:
                e.import_directory(directory)
            result = {"ok": True}
        elif command == "setresuid":
            os.setresuid(int(args[0]), 0, 0)
            try:
                with tender.Engine("/nonexistent-home/in-process"):
                    in_process = "ok"
            except tender.TenderError as error:
                in_process = type(error).__name__
            try:
                with engine(socket):
                    result = {"ok": True, "inProcess": in_process}
            except tender.TenderError as error:
                result = {"error": type(error).__name__, "message": str(error), "inProcess": in_process}
        elif command == "engine":
            with engine(socket, **json.loads(args[0])):
                result = {"ok": True}
        else:
            raise SystemExit(f"unknown command {command}")
    except tender.TenderError as error:
        result = {"error": type(error).__name__, "message": str(error)}
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv)
