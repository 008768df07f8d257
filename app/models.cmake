# Generated model folders: the tiny random DiffusionGemma (build/models/tiny) that the Studio,
# the tests and the demos run on. It needs dgem and the tokenizer (scripts/prepare-tokenizer.sh).
add_custom_command(
  OUTPUT ${DS_TINY_MODEL_DIR}/config.json
  COMMAND dgem make-tiny-model --out ${DS_TINY_MODEL_DIR} --seed 0 --preset tiny
          --tokenizer ${DS_TOKENIZER_JSON}
  DEPENDS dgem ${DS_TOKENIZER_JSON}
  COMMENT "Writing the tiny DiffusionGemma model into ${DS_TINY_MODEL_DIR}"
  VERBATIM)
add_custom_target(tiny_model ALL DEPENDS ${DS_TINY_MODEL_DIR}/config.json)
