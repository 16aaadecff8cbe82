"""(being written)"""

app_name = "imports"
urlpatterns: list[object] = []
