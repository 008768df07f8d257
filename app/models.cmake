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

# The demo model (models/demo, trained here by tools/demo_model/train.py on synthetic data for the
# shipped policies) is the default model wherever none is named, once its weights are in git; until
# then the tiny model is. The Gemma tokenizer joins it in build/models/demo from set-up, as it
# joins the tiny model.
set(DS_DEMO_MODEL_SOURCE ${CMAKE_SOURCE_DIR}/models/demo)
if(EXISTS ${DS_DEMO_MODEL_SOURCE}/model.safetensors)
  set(DS_DEMO_MODEL_FILES ${DS_DEMO_MODEL_SOURCE}/config.json ${DS_DEMO_MODEL_SOURCE}/model.safetensors
      ${DS_DEMO_MODEL_SOURCE}/generation_config.json ${DS_DEMO_MODEL_SOURCE}/training.json)
  add_custom_command(
    OUTPUT ${DS_DEMO_MODEL_DIR}/config.json
    COMMAND ${CMAKE_COMMAND} -E make_directory ${DS_DEMO_MODEL_DIR}
    COMMAND ${CMAKE_COMMAND} -E copy ${DS_DEMO_MODEL_FILES} ${DS_TOKENIZER_JSON} ${DS_DEMO_MODEL_DIR}
    DEPENDS ${DS_DEMO_MODEL_FILES} ${DS_TOKENIZER_JSON}
    COMMENT "Assembling the demo model in ${DS_DEMO_MODEL_DIR}"
    VERBATIM)
  add_custom_target(demo_model ALL DEPENDS ${DS_DEMO_MODEL_DIR}/config.json)
endif()
