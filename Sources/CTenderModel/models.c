/* SPDX-License-Identifier: Apache-2.0
 * The understanding models' bytes, embedded from the binary files beside this one (C23 #embed). The files are
 * written by scripts/train-understanding-model.py and checked against models.sha256 by the build (make
 * check-model). Learnt from CLINC150 (Larson et al., EMNLP 2019, CC BY 3.0, https://github.com/clinc/oos-eval),
 * Schema-Guided Dialogue (Rastogi et al., AAAI 2020, CC BY-SA 4.0,
 * https://github.com/google-research-datasets/dstc8-schema-guided-dialogue) and Tender's generated data; the
 * common words from wordfreq 3.1.1 (https://github.com/rspeer/wordfreq, data CC BY-SA 4.0). */
#include "tender_model.h"

const unsigned char tdr_intent_model[] = {
#embed "intent_model.bin"
};
const size_t tdr_intent_model_size = sizeof(tdr_intent_model);

const unsigned char tdr_slot_model[] = {
#embed "slot_model.bin"
};
const size_t tdr_slot_model_size = sizeof(tdr_slot_model);

const unsigned char tdr_lexicon[] = {
#embed "lexicon.bin"
};
const size_t tdr_lexicon_size = sizeof(tdr_lexicon);
