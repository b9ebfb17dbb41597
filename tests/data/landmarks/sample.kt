package sample

data class User(val name: String)

object Registry {
    private val users = mutableListOf<User>()

    fun add(user: User) {
        users.add(user)
    }
}

suspend fun load(): User {
    val u = User("x")
    return u
}
