# gobblet_write_if_changed(<file> <text>): writes the text to the file only
# if it differs from what is there, so that an unchanged generated source
# recompiles nothing (web/embed.cmake, search/nnue/embed_net.cmake).
function(gobblet_write_if_changed file text)
  if(EXISTS ${file})
    file(READ ${file} old)
    if(old STREQUAL text)
      return()
    endif()
  endif()
  file(WRITE ${file} "${text}")
endfunction()
