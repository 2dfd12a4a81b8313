# cmake --install: headers, static libraries, the kvserver binary and a CMake package, so that
# find_package(kvserver CONFIG) gives kvserver::server (and kvserver::gtest).
include(CMakePackageConfigHelpers)

set(KV_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/kvserver)

install(TARGETS kvserver RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kv_protocol kv_storage kv_server kvserver_server EXPORT kvserverTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT kvserverTargets NAMESPACE kvserver:: DESTINATION ${KV_CMAKE_DIR})
if(KV_HAVE_GTEST)
  install(TARGETS kvserver_gtest EXPORT kvserverGTestTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(EXPORT kvserverGTestTargets NAMESPACE kvserver:: DESTINATION ${KV_CMAKE_DIR})
endif()

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/kvserver DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/protocol ${PROJECT_SOURCE_DIR}/storage
                  ${PROJECT_SOURCE_DIR}/server
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/kvserver/internal FILES_MATCHING PATTERN "*.h")

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/kvserverConfig.cmake.in
  ${PROJECT_BINARY_DIR}/kvserverConfig.cmake INSTALL_DESTINATION ${KV_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/kvserverConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/kvserverConfig.cmake
              ${PROJECT_BINARY_DIR}/kvserverConfigVersion.cmake
        DESTINATION ${KV_CMAKE_DIR})
